package h3fixture

import (
	"crypto/rand"
	"crypto/tls"
	"net"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/quic-go/quic-go"
)

// Server is a running raw HTTP/3 server on 127.0.0.1 (UDP), written on
// quic-go's streams with hand-written frames so that every misbehaviour
// of a Behaviour happens exactly as described and its counters are exact.
// It is closed by the test's Cleanup.
type Server struct {
	b        Behaviour // immutable after Start
	certs    certs
	udp      *net.UDPConn
	key      quic.StatelessResetKey // shared by the transport and its restart
	url      string
	response []byte        // what answers each request stream, built once
	done     chan struct{} // closed by Close: cuts Delays and stalls short

	seq       atomic.Int64 // request streams numbered for the "every Nth" schedules
	counts    counts
	restarted atomic.Bool

	mu       sync.Mutex         // guards tr, ln, conns, closed, crashing and each conn's requests, ending and ends
	tr       *quic.Transport    // the transport serving now
	ln       *quic.Listener     // its listener
	conns    map[*conn]struct{} // connections being served
	closed   bool               // Close has begun: accept nothing more
	crashing bool               // StatelessResetAfter fired: the first transport counts no more requests

	restarts  sync.WaitGroup // a StatelessResetAfter restart under way; added to under mu
	wg        sync.WaitGroup // every goroutine of the server
	closeOnce sync.Once
}

// Start starts a server behaving as b on a fresh loopback UDP port and
// registers its Close with t.Cleanup. It calls t.Fatal if b combines
// fields Behaviour documents as exclusive.
func Start(t testing.TB, b Behaviour) *Server {
	t.Helper()
	if err := b.validate(); err != nil {
		t.Fatal(err)
	}
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{b: b, certs: newCerts(t), udp: udp, response: encodeResponse(&b), done: make(chan struct{}), conns: map[*conn]struct{}{}}
	s.url = "https://" + udp.LocalAddr().String() + "/"
	_, _ = rand.Read(s.key[:])
	t.Cleanup(s.Close)
	if b.NoHandshake {
		s.wg.Go(s.silent)
		return s
	}
	if err := s.listen(0); err != nil {
		t.Fatal(err)
	}
	return s
}

// URL returns the base URL, "https://127.0.0.1:PORT/".
func (s *Server) URL() string { return s.url }

// Addr returns "127.0.0.1:PORT", the server's UDP address.
func (s *Server) Addr() string { return s.udp.LocalAddr().String() }

// CAFile returns the path of a PEM file holding the server's self-signed
// certificate, for a client's --cacert. It lives in the test's TempDir.
func (s *Server) CAFile() string { return s.certs.file }

// ClientTLS returns a client TLS configuration that trusts the server's
// certificate, names "localhost" (the certificate also names 127.0.0.1
// and ::1) and offers ALPN "h3" only. Each call returns a fresh copy.
func (s *Server) ClientTLS() *tls.Config { return s.certs.client() }

// Connections returns the connections whose handshake completed.
func (s *Server) Connections() int64 { return s.counts.conns.Load() }

// Streams returns the request (bidirectional) streams accepted, whatever
// became of them.
func (s *Server) Streams() int64 { return s.counts.streams.Load() }

// Requests returns the requests whose HEADERS frame was read and decoded
// (on a connection not already ending): answered, faulty, reset,
// stalled or cut off. Streams rejected unread are not counted here but by
// Rejected.
func (s *Server) Requests() int64 { return s.counts.requestCount() }

// Paths returns the requests counted by Requests per :path, in a fresh map.
func (s *Server) Paths() map[string]int64 { return s.counts.pathCounts() }

// Responses returns the honest responses written completely: the last
// byte written and the FIN queued. Each is counted just before its FIN is
// queued, so a client that read the FIN finds it counted. Faulty ones are
// counted by Faults instead.
func (s *Server) Responses() int64 { return s.counts.responses.Load() }

// Faults returns the faulty responses (ReservedFrame, BadQPACK,
// ContentLengthMismatch) written completely, counted as Responses are.
func (s *Server) Faults() int64 { return s.counts.faults.Load() }

// Resets returns the streams reset by ResetEvery, each counted before its
// reset is sent.
func (s *Server) Resets() int64 { return s.counts.resets.Load() }

// Rejected returns the streams reset with H3_REQUEST_REJECTED without
// being read (a byte at most), by RejectEvery or for being at or above a
// GOAWAY's id, each counted before its reset is sent. Streams the client
// withdrew are counted by Withdrawn instead.
func (s *Server) Rejected() int64 { return s.counts.rejected.Load() }

// Withdrawn returns the streams Rejected would have counted that the
// client reset with H3_REQUEST_CANCELLED before the server read a byte of
// them: requests it took back (RFC 9114 §5.2 lets it, above a GOAWAY's
// id).
func (s *Server) Withdrawn() int64 { return s.counts.withdrawn.Load() }

// Stalled returns the streams StallEvery left unanswered.
func (s *Server) Stalled() int64 { return s.counts.stalled.Load() }

// Cancelled returns the streams the client cancelled with
// H3_REQUEST_CANCELLED (STOP_SENDING or RESET_STREAM) while the server
// read the request, waited (Delay), stalled or wrote the response.
func (s *Server) Cancelled() int64 { return s.counts.cancelled.Load() }

// Abandoned returns the streams still waiting (Delay, a stall) when the
// client closed their connection, without cancelling them first: a
// client that closes at the end of a run may close before its last
// cancellations leave.
func (s *Server) Abandoned() int64 { return s.counts.abandoned.Load() }

// Violations returns the client's protocol errors the server saw: a
// request stream that ends or breaks before its HEADERS, a frame not
// allowed on a request stream, a header block that does not decode or
// lacks :method or :path, a truncated frame, and a control stream that
// does not start with SETTINGS, is closed, or comes twice, or a push
// stream. A correct client keeps it 0.
func (s *Server) Violations() int64 { return s.counts.violations.Load() }

// BodyBytes returns the request body bytes received (DATA payloads).
func (s *Server) BodyBytes() int64 { return s.counts.bodyBytes.Load() }

// Restarted reports whether StatelessResetAfter has fired and the new
// transport is listening: from then on, a request the client sends on an
// old connection draws a stateless reset.
func (s *Server) Restarted() bool { return s.restarted.Load() }
