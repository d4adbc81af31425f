package engine

import (
	"errors"
	"io"
	"syscall"
	"time"
)

// The decisions of an HTTP/1.1 connection, each made once here for both
// transports (the event loop's loopConn, the goroutines' goConn): what a
// failed dial, a failed write, a failed read and what an idle connection
// finds mean for the requests in hand and for the connection. A transport
// reports the event, and does what the decision returns. HTTP/2's are in
// h2decide.go.

// DialFailed is the decision after a dial for the requests in hand
// failed: each is a connect error (unless the run stopped, which cut the
// dial short), and the connection waits the returned backoff before it
// dials again.
func (c *Conn) DialFailed(err error) time.Duration {
	if !c.Load.Stopped() {
		c.Record(ConnectFailure(err), c.Requests)
	}
	c.Inflight = 0
	return c.NextBackoff()
}

// WriteFailed is the decision after a write of the requests in hand
// failed (untouched: no byte of it left). A server that served this
// connection and had closed it before the write reached it is a
// reconnect: the requests go on a new connection (retry). Otherwise every
// request in hand is a write error, and refused is set when the server
// closed a fresh connection: it backs off.
func (c *Conn) WriteFailed(err error, untouched bool) (retry bool) {
	if untouched && c.Served > 0 && closedBeforeWrite(err) {
		c.Inflight = 0
		c.Worker.addReconnect(c.Ticket.Phase)
		return true
	}
	c.Refused = c.Served == 0 && closedBeforeWrite(err)
	if !c.Load.Stopped() {
		c.Record(WriteFailure(err), c.Requests)
	}
	c.Inflight = 0
	return false
}

// ReadFailed is the decision after a read with requests in flight failed
// at now: a timeout, the server's close (io.EOF) or reset, or worse;
// pending holds the bytes read and not parsed. It reports whether the
// connection backs off before its next dial: it failed before any byte of
// a response.
func (c *Conn) ReadFailed(err error, now time.Time, pending []byte) (backOff bool) {
	c.Refused = false
	switch {
	case IsTimeout(err):
		c.timedOut(pending)
	case errors.Is(err, io.EOF):
		c.closedByServer(false, now, pending)
	case errors.Is(err, syscall.ECONNRESET):
		c.closedByServer(true, now, pending)
	default:
		c.Fail(readFailure(err, c.Parser.Started()))
	}
	return c.Refused
}

// IdleSeen is the decision on what a connection with nothing in flight
// found when it was looked at: bytes nobody asked for, b, are an error of
// their own; none (the server's close or reset) is a reconnect. Either way
// the connection goes, and what it was to do next goes on a new one.
func (c *Conn) IdleSeen(b []byte) {
	if len(b) > 0 {
		c.unsolicited(b)
		return
	}
	c.Worker.addReconnect(c.Ticket.Phase)
}

// timedOut counts the requests in flight as timeouts, the first as a
// partial response if its response had begun (begun).
func (c *Conn) timedOut(pending []byte) {
	c.Fail(timeoutFailure(c.begun(pending)))
}

// begun reports whether the response being read had begun: the parser is
// past its head, or holds bytes of a head not yet whole (pending, read
// and not parsed: an HTTP/0.9 reply, garbage, a head cut short).
func (c *Conn) begun(pending []byte) bool {
	return c.Parser.Started() || len(pending) > 0
}
