package h3fixture

import (
	"context"
	"crypto/tls"
	"errors"
	"net"

	"github.com/quic-go/quic-go"
)

// errClosed reports that the server was closed while it was starting a
// transport.
var errClosed = errors.New("h3fixture: server closed")

// listen starts a transport and its listener on the server's socket, and
// the accept loop of connections of generation gen (0 at Start, 1 after
// StatelessResetAfter's restart).
func (s *Server) listen(gen int) error {
	tr := &quic.Transport{Conn: s.udp, StatelessResetKey: &s.key}
	if s.b.GoAwayAfter > 0 {
		tr.ConnContext = withFlight
	}
	ln, err := tr.Listen(s.tlsConfig(), s.quicConfig())
	if err != nil {
		_ = tr.Close()
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		_ = ln.Close()
		_ = tr.Close()
		return errClosed
	}
	s.tr, s.ln = tr, ln
	s.wg.Go(func() { s.accept(ln, gen) })
	return nil
}

// tlsConfig returns the server's TLS configuration: ALPN "h3", or only
// "h2" for NoH3ALPN.
func (s *Server) tlsConfig() *tls.Config {
	if s.b.NoH3ALPN {
		return s.certs.server("h2")
	}
	return s.certs.server(nextProtoH3)
}

// quicConfig returns the server's QUIC configuration.
func (s *Server) quicConfig() *quic.Config {
	c := &quic.Config{MaxIncomingStreams: s.b.MaxStreams}
	if s.b.GoAwayAfter > 0 {
		c.Tracer = traceFlight
	}
	return c
}

// accept accepts connections (their handshake complete) until the
// listener or its transport is closed.
func (s *Server) accept(ln *quic.Listener, gen int) {
	for {
		qc, err := ln.Accept(context.Background())
		if err != nil {
			return
		}
		s.counts.conns.Add(1)
		c := newConn(s, qc, gen)
		if !s.track(c) {
			_ = qc.CloseWithError(CodeNoError, "h3fixture: server closed")
			continue
		}
		s.wg.Go(func() {
			defer s.untrack(c)
			c.serve()
		})
	}
}

// track registers c unless Close has begun.
func (s *Server) track(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

// untrack forgets c.
func (s *Server) untrack(c *conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

// silent reads datagrams and never answers (NoHandshake), until the
// socket is closed.
func (s *Server) silent() {
	buf := make([]byte, 2048)
	for {
		if _, _, err := s.udp.ReadFrom(buf); errors.Is(err, net.ErrClosed) {
			return
		}
	}
}

// Close stops the server now, as the test's Cleanup would: it closes every
// connection with H3_NO_ERROR, then the transport and the socket, and
// waits for every goroutine of the server. Calling it again, or the
// Cleanup after it, does nothing.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		close(s.done)
		s.restarts.Wait()
		s.mu.Lock()
		ln, tr, conns := s.ln, s.tr, make([]*conn, 0, len(s.conns))
		for c := range s.conns {
			conns = append(conns, c)
		}
		s.mu.Unlock()
		if ln != nil {
			_ = ln.Close()
		}
		for _, c := range conns {
			_ = c.qc.CloseWithError(CodeNoError, "h3fixture: server closed")
		}
		if tr != nil {
			_ = tr.Close()
		}
		_ = s.udp.Close()
		s.wg.Wait()
	})
}
