package engine

import (
	"fmt"
	"time"

	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/pummel-dev/pummel/stats/record"
)

// The decisions of an HTTP/2 connection, each made once here for both
// transports (the event loop's h2Loop, the goroutines' h2Conn): what a
// server's limit, GOAWAY, close, protocol error or a failed write mean
// for the streams open and for the connection. A transport reports the
// event, and does what the decision returns.

// H2Then is what a transport does with an HTTP/2 connection after an
// event that ends it.
type H2Then uint8

const (
	// h2Replace: close it, and go on at once on a new connection.
	h2Replace H2Then = iota
	// H2BackOff: close it, and go on after the backoff, so that a server
	// that takes connections and serves none is not redialed in a hot
	// loop.
	H2BackOff
)

// then is how a connection that failed goes on: after the backoff when
// it failed before any byte of a response (nothing was read after the
// handshake), as an HTTP/1.1 connection does.
func (s *H2Streams) then() H2Then {
	if !s.Heard {
		return H2BackOff
	}
	return h2Replace
}

// Handshook is the decision once the server's first SETTINGS arrived: a
// stream limit below --streams is one warning of the run, and a limit of
// zero means the server can serve nothing on this connection.
func (s *H2Streams) Handshook(c *Conn) error {
	limit := s.Sess.ServerLimit()
	if limit < uint32(c.Load.Config.StreamsPerConn()) {
		c.Load.streamCap.CompareAndSwap(0, int64(limit)+1)
	}
	if limit == 0 {
		return &NoStreamsError{}
	}
	return nil
}

// Drained is the decision after a GOAWAY once every stream it let finish
// ended (h2.Session.Drained): the connection is replaced, a reconnect and
// no error, after the backoff when it served nothing
// (h2.BackOffAfterDrain). engine/h2/goaway.go tells the whole of it.
func (s *H2Streams) Drained(c *Conn, phase int) H2Then {
	c.Worker.addReconnect(phase)
	if h2.BackOffAfterDrain(c.Served) {
		return H2BackOff
	}
	return h2Replace
}

// WriteFailed is the decision after a write the socket refused (untouched:
// no byte of it left). When a server that had served this connection
// closed before the write reached it, the streams it was to open never
// reached the server: their tickets go on a new connection (a reconnect,
// by the counting rule) and those written before end as closed before
// responding. A write that outlived --timeout ends every open stream as a
// timeout; any other failed write is a write error of every open stream.
func (s *H2Streams) WriteFailed(c *Conn, err error, untouched bool, phase int) H2Then {
	if untouched && closedBeforeWrite(err) && c.Served > 0 {
		s.requeueUnwritten(c, phase)
		return h2Replace
	}
	if !c.Load.Stopped() {
		if IsTimeout(err) {
			s.timeoutAll(c)
		} else {
			s.failOpen(c, WriteFailure(err))
		}
	}
	s.Sess.Abandon()
	return s.then()
}

// Closed is the decision after the server closed or reset the connection,
// or a read failed: each open stream is a read error; with none open the
// close is a reconnect.
func (s *H2Streams) Closed(c *Conn, err error, phase int) H2Then {
	if s.Sess.Open() == 0 {
		c.Worker.addReconnect(phase)
		return s.then()
	}
	if !c.Load.Stopped() {
		s.failOpen(c, readFailure(err, false))
	}
	return s.then()
}

// ProtocolFailed is the decision after the server broke the protocol:
// each open stream is a read error with the cause, or, with none open,
// the violation is one error of its own. The session queued a GOAWAY,
// which the transport writes before it closes, as a courtesy.
func (s *H2Streams) ProtocolFailed(c *Conn, err error, phase int) H2Then {
	if !c.Load.Stopped() {
		f := Fail(record.Read, "protocol error: "+err.Error())
		if s.Sess.Open() == 0 {
			c.RecordFailure(phase, time.Now(), 0, f, 1)
		}
		s.failOpen(c, f)
	}
	s.Sess.Abandon()
	return s.then()
}

// NoStreamsError is a server whose SETTINGS allow no stream
// (SETTINGS_MAX_CONCURRENT_STREAMS 0): no request can be sent to it. It
// is an ErrUnreachable when no connection could serve the run.
type NoStreamsError struct{}

func (e *NoStreamsError) Unwrap() error { return ErrUnreachable }

func (e *NoStreamsError) Error() string {
	return "the server allows no stream (SETTINGS_MAX_CONCURRENT_STREAMS 0)"
}

// NoHTTP2Error is a TLS server that did not choose HTTP/2 in ALPN. It is
// an ErrUnreachable: no connection could serve the run.
type NoHTTP2Error struct{ ALPN string }

func (e *NoHTTP2Error) Unwrap() error { return ErrUnreachable }

func (e *NoHTTP2Error) Error() string {
	p := e.ALPN
	if p == "" {
		p = "none"
	}
	return fmt.Sprintf("the server did not negotiate HTTP/2 (ALPN: %s)", p)
}
