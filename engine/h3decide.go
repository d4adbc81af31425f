package engine

import (
	"fmt"
	"time"

	"github.com/pummel-dev/pummel/engine/h3"
	"github.com/pummel-dev/pummel/stats/record"
)

// The decisions of an HTTP/3 connection and its streams, made here once
// for the QUIC transport (engine/quicgo), which reports what QUIC told it
// in these terms. The counting rule reads, per stream: a stream whose
// HEADERS frame was written ends exactly once, as a response or as one
// error; a request whose stream never opened (the connection was gone, or
// draining after a GOAWAY) was not sent, and goes on the next connection;
// nothing is retried behind the caller's back.

// H3EndKind is how a stream whose HEADERS were written ended without a
// response.
type H3EndKind uint8

const (
	// H3Reset: the server reset the stream (RESET_STREAM) with Code.
	H3Reset H3EndKind = iota
	// H3NotProcessed: the stream's id was at or above the id of the
	// server's GOAWAY, which promises not to process it.
	H3NotProcessed
	// H3Lost: the connection closed with the stream open; Cause says how
	// (the server's CONNECTION_CLOSE and its code, an idle timeout, a
	// stateless reset).
	H3Lost
	// H3TimedOut: --timeout passed; the transport cancelled the stream
	// (STOP_SENDING and RESET_STREAM with H3_REQUEST_CANCELLED) and keeps
	// the connection. Writing tells a request still being written (its
	// body held back by the server's flow control), Started a response
	// begun.
	H3TimedOut
	// H3Malformed: the response broke HTTP/3 (an h3.ProtocolError, whose
	// text is Cause); the transport ended the stream with its code.
	H3Malformed
)

// H3End is the end of a stream whose HEADERS were written, other than a
// response.
type H3End struct {
	Kind             H3EndKind
	Code             h3.ErrCode
	Cause            string
	Writing, Started bool
}

// failure is how e counts: a read error with its cause, or a timeout.
func (e H3End) failure() Failure {
	switch e.Kind {
	case H3Reset:
		if e.Code == h3.RequestRejected {
			return Fail(record.Read, "not processed: "+e.Code.String())
		}
		return Fail(record.Read, "stream reset by the server ("+e.Code.String()+")")
	case H3NotProcessed:
		return Fail(record.Read, "not processed: GOAWAY")
	case H3Lost:
		return Fail(record.Read, "connection closed: "+e.Cause)
	case H3TimedOut:
		if e.Writing {
			return Fail(record.Timeout, causeWriteTimeout)
		}
		return timeoutFailure(e.Started)
	}
	return Fail(record.Read, "protocol error: "+e.Cause)
}

// H3Responded counts the response to ticket t's stream, written at sent
// and read whole at now by r: handed to the script's response() first.
func (c *Conn) H3Responded(t *Ticket, sent, now time.Time, target uint32, status int, r *h3.Reader) {
	scriptErr := ""
	if c.Worker.Script != nil {
		scriptErr = c.scriptFieldsResponse(t.Phase, status, r.Headers, r.Body)
	}
	c.recordResponse(t, sent, now, target, status, r.Body, scriptErr)
}

// H3Request is the request ticket t's stream sends, and its target: the
// one built before the clock, or what the script's request() returned,
// turned into HTTP/3. It reports false when the script failed, which was
// counted.
func (c *Conn) H3Request(t *Ticket) (*h3.Request, uint32, bool) {
	if !c.Load.FromScript {
		req, target := c.H3Target(*t)
		return req, target, true
	}
	raw, err := c.ScriptRequest()
	if err == nil {
		var req *h3.Request
		if req, err = H3FromWire(raw); err == nil {
			return req, 0, true
		}
	}
	c.ScriptFailed(*t, err)
	return nil, 0, false
}

// H3Reader makes the response reader of one of c's streams: it keeps
// what --expect-body and a script's response() read.
func (c *Conn) H3Reader() *h3.Reader {
	r := h3.NewReader(c.Load.keepBodySize())
	r.KeepHeaders = c.Worker.Script != nil && c.Worker.Script.thread.WantsResponse()
	return r
}

// H3Failed counts the end of ticket t's stream, written at sent, without
// a response: one error, unless the run stopped first (a stream the stop
// cut short is not the server's fault).
func (c *Conn) H3Failed(t *Ticket, sent time.Time, target uint32, e H3End) {
	if c.Load.Stopped() {
		c.TakeBytes(t.Phase)
		return
	}
	c.RecordFailure(t.Phase, sent, target, e.failure(), 1)
}

// H3DialFailed is the decision after a connection's handshake failed for
// ticket t, whose stream could not open: a connect error of that request,
// and the backoff before the next handshake. Other requests waiting for
// the connection keep their tickets: one handshake failed, one error.
func (c *Conn) H3DialFailed(t *Ticket, target uint32, err error) time.Duration {
	if !c.Load.Stopped() {
		c.RecordFailure(t.Phase, time.Now(), target, ConnectFailure(err), 1)
	}
	return c.NextBackoff()
}

// H3Replaced is the decision when a connection that served served
// responses is replaced, closed by the server or draining after its
// GOAWAY: a reconnect when reconnect is set (no stream was lost with it:
// those were read errors, as HTTP/2 counts them); it returns how long the
// next handshake waits: nothing, or the backoff after a connection that
// served nothing, so that a server that takes connections and serves none
// is not redialed in a hot loop.
func (c *Conn) H3Replaced(phase, served int, reconnect bool) (wait time.Duration) {
	if reconnect {
		c.Worker.addReconnect(phase)
	}
	if served > 0 {
		c.backoff = 0
		return 0
	}
	return c.NextBackoff()
}

// H3StreamLimit notes that the server lets a connection open only limit
// streams at once, fewer than --streams: one warning of the run.
func (c *Conn) H3StreamLimit(limit int) {
	c.Load.streamCap.CompareAndSwap(0, int64(limit)+1)
}

// NoHTTP3Error is a server that did not choose "h3" in ALPN. It is an
// ErrUnreachable: no connection could serve the run.
type NoHTTP3Error struct{ Cause string }

func (e *NoHTTP3Error) Unwrap() error { return ErrUnreachable }

func (e *NoHTTP3Error) Error() string {
	return fmt.Sprintf("the server did not negotiate HTTP/3 (ALPN h3): %s", e.Cause)
}

// HandshakeError is a QUIC handshake that failed for a reason the
// transport named (Cause); Err is what QUIC said.
type HandshakeError struct {
	Cause string
	Err   error
}

func (e *HandshakeError) Unwrap() error { return e.Err }

func (e *HandshakeError) Error() string { return e.Err.Error() }
