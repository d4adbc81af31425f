package h2fixture

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/http2"
)

// H2COnly is a running server on 127.0.0.1 that speaks nothing but HTTP/2
// in the clear, as nginx's `listen … http2` or Go's h2c server do, for the
// tests of what an HTTP/1.1 client sees there: on each connection it sends
// its SETTINGS frame at once, before reading anything, as RFC 9113 §3.4
// lets a server; then it reads the client's first 24 bytes and, when they
// are not the HTTP/2 preface (an HTTP/1.1 request), writes a
// GOAWAY(PROTOCOL_ERROR) if asked, as nginx does, and closes cleanly
// (lingering, so the client reads EOF, not a racy RST). It is closed by
// the test's Cleanup.
type H2COnly struct {
	acc    *acceptor
	goAway bool // immutable after StartH2COnly
	conns  atomic.Int64
}

// StartH2COnly starts an h2c-only server; with goAway, a connection that
// did not start with the preface gets a GOAWAY before the close.
func StartH2COnly(t testing.TB, goAway bool) *H2COnly {
	t.Helper()
	s := &H2COnly{goAway: goAway}
	s.acc = listen(t, s.serve)
	return s
}

// URL returns "http://127.0.0.1:PORT/".
func (s *H2COnly) URL() string { return "http://" + s.acc.addr() + "/" }

// Connections returns how many connections the server accepted.
func (s *H2COnly) Connections() int64 { return s.conns.Load() }

// serve greets one connection and judges its preface.
func (s *H2COnly) serve(nc net.Conn) {
	s.conns.Add(1)
	bw := bufio.NewWriter(nc)
	fr := http2.NewFramer(bw, nc)
	settings := []http2.Setting{{ID: http2.SettingMaxConcurrentStreams, Val: 128}, {ID: http2.SettingInitialWindowSize, Val: 65536}}
	if fr.WriteSettings(settings...) != nil || bw.Flush() != nil {
		return
	}
	preface := make([]byte, len(http2.ClientPreface))
	_ = nc.SetReadDeadline(time.Now().Add(lingerWait))
	if _, err := io.ReadFull(nc, preface); err != nil || bytes.Equal(preface, []byte(http2.ClientPreface)) {
		return // a client that speaks HTTP/2 is not what this server is for
	}
	if s.goAway {
		_ = fr.WriteGoAway(0, http2.ErrCodeProtocol, []byte("invalid preface"))
		_ = bw.Flush()
	}
	lingerClose(nc, nc.(*net.TCPConn))
}
