package h2fixture

import (
	"bytes"
	"crypto/tls"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/net/http2/hpack"
)

// Server is a running raw HTTP/2 server on 127.0.0.1, written on
// x/net/http2's Framer and hpack so that every misbehaviour of a Behaviour
// happens exactly as described and its counters are exact. It is closed by
// the test's Cleanup.
type Server struct {
	b        Behaviour // immutable after Start
	acc      *acceptor
	url      string
	server   *tls.Config // nil for h2c
	client   *tls.Config
	block    []byte // the response header block, encoded once
	payload  []byte // the response body
	flood    []byte // one write of FloodPings or FloodSettings
	fragment []byte // each CONTINUATION's block fragment in ContinuationFlood

	seq        atomic.Int64 // streams weighed against ResetEvery and StallEvery
	conns      atomic.Int64
	answered   atomic.Int64
	reset      atomic.Int64
	refused    atomic.Int64
	violations atomic.Int64
	counter    counter // HEADERS per path; request body bytes

	mu     sync.Mutex // guards bodies
	bodies []int64    // request body length of each complete request
}

// Start starts a raw server behaving as b and registers its Close with
// t.Cleanup. It calls t.Fatal if b combines fields Behaviour documents as
// exclusive.
func Start(t testing.TB, b Behaviour) *Server {
	t.Helper()
	if err := b.validate(); err != nil {
		t.Fatal(err)
	}
	s := &Server{b: b, block: headerBlock(&b), payload: body(b.BodySize), flood: floodChunk(&b)}
	if b.ContinuationFlood {
		s.fragment = floodFragment()
	}
	if b.TLS {
		c := newCerts(t)
		s.server, s.client = c.server("h2"), c.client()
	}
	s.acc = listen(t, s.serve)
	s.url = scheme(b.TLS) + s.acc.addr() + "/"
	return s
}

// headerBlock encodes ":status" and "content-length" (ContentLength if
// set, else BodySize) as HPACK literals that are never indexed, so no
// dynamic table is involved.
func headerBlock(b *Behaviour) []byte {
	status := b.Status
	if status == 0 {
		status = 200
	}
	length := b.BodySize
	if b.ContentLength > 0 {
		length = b.ContentLength
	}
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	_ = enc.WriteField(hpack.HeaderField{Name: ":status", Value: strconv.Itoa(status), Sensitive: true})
	_ = enc.WriteField(hpack.HeaderField{Name: "content-length", Value: strconv.Itoa(length), Sensitive: true})
	return buf.Bytes()
}

// serve runs one connection: the TLS handshake if any, then the frame loop.
func (s *Server) serve(nc net.Conn) {
	s.conns.Add(1)
	tcp := nc.(*net.TCPConn)
	nc, ok := handshake(nc, s.server)
	if !ok {
		return
	}
	newConn(s, nc, tcp).run()
}

// URL returns the base URL, "http://127.0.0.1:PORT/" (h2c) or
// "https://127.0.0.1:PORT/".
func (s *Server) URL() string { return s.url }

// Addr returns "127.0.0.1:PORT".
func (s *Server) Addr() string { return s.acc.addr() }

// ClientTLS returns a client TLS configuration that trusts the server's
// certificate, names 127.0.0.1 and offers ALPN "h2" only; nil for h2c.
// Each call returns a fresh copy.
func (s *Server) ClientTLS() *tls.Config { return cloneTLS(s.client) }

// Connections returns the connections accepted.
func (s *Server) Connections() int64 { return s.conns.Load() }

// Streams returns the streams opened: HEADERS frames received that opened
// a stream, whatever became of it (refused, ignored after GOAWAY, reset,
// stalled or answered).
func (s *Server) Streams() int64 { return s.counter.total() }

// StreamsFor returns the streams opened for path (the :path pseudo-header).
func (s *Server) StreamsFor(path string) int64 { return s.counter.path(path) }

// Answered returns the responses sent completely (END_STREAM written),
// AnswerUnopened's unsolicited ones excluded. Each is counted just before
// its last frame is written, so a client that saw END_STREAM finds it
// counted.
func (s *Server) Answered() int64 { return s.answered.Load() }

// Reset returns the streams reset by ResetEvery.
func (s *Server) Reset() int64 { return s.reset.Load() }

// Refused returns the streams refused by RefuseBeyond.
func (s *Server) Refused() int64 { return s.refused.Load() }

// Violations returns the client's protocol errors seen by the server:
// streams opened beyond MaxConcurrentStreams (or ZeroStreams' 0), streams
// opened after SettingsThenGoAway's GOAWAY, DATA beyond the server's
// windows, a bad preface, frames on streams never opened, stream ids not
// increasing, and frames the Framer rejects. A correct client keeps it 0.
func (s *Server) Violations() int64 { return s.violations.Load() }

// BodyBytes returns the request body bytes received (DATA payloads).
func (s *Server) BodyBytes() int64 { return s.counter.body.Load() }

// Bodies returns the body length of each complete request (END_STREAM
// seen), in the order they completed.
func (s *Server) Bodies() []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int64(nil), s.bodies...)
}

// complete records a complete request of n body bytes.
func (s *Server) complete(n int64) {
	s.mu.Lock()
	s.bodies = append(s.bodies, n)
	s.mu.Unlock()
}
