package h3fixture

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/quic-go/quic-go"
)

// reservedFrame is ReservedFrame's frame: type 0x02, empty.
var reservedFrame = appendFrame(nil, 0x02, nil)

// badQPACK is BadQPACK's header block: an encoded Required Insert Count
// of 2 (nonzero, so it refers to the dynamic table, which the server
// never filled), Base 0, then an indexed field line for dynamic entry 0.
var badQPACK = []byte{0x02, 0x00, 0x80}

// encodeResponse returns what answers each request stream under b: HEADERS
// (":status", "content-length") and a DATA frame of BodySize 'x' bytes,
// or the configured fault.
func encodeResponse(b *Behaviour) []byte {
	var out []byte
	if b.ReservedFrame {
		out = append(out, reservedFrame...)
	}
	if b.BadQPACK {
		return appendFrame(out, frameHeaders, badQPACK)
	}
	length := b.BodySize
	if b.ContentLengthMismatch {
		length += 5
	}
	out = appendFrame(out, frameHeaders, encodeFields(":status", strconv.Itoa(b.status()), "content-length", strconv.Itoa(length)))
	if b.BodySize > 0 {
		out = appendFrame(out, frameData, bytes.Repeat([]byte{'x'}, b.BodySize))
	}
	return out
}

// answer writes the response and its FIN. The response is counted between
// the two, so a client that read the FIN finds it counted; a FIN that
// cannot be queued takes the count back.
func (c *conn) answer(str *quic.Stream) {
	if _, err := str.Write(c.s.response); err != nil {
		c.s.counts.cancelledBy(err)
		return
	}
	counter := &c.s.counts.responses
	if c.b.fault() {
		counter = &c.s.counts.faults
	}
	counter.Add(1)
	c.ended(str.StreamID())
	if err := str.Close(); err != nil {
		counter.Add(-1)
	}
}

// reject resets a stream with H3_REQUEST_REJECTED, its request unread (a
// byte at most), unless the client withdrew it first. It may wait for the
// stream's first frame (withdrawWait at most): it runs on its own
// goroutine or a stream's. A stream whose connection closes meanwhile is
// counted rejected too, though no reset can leave: its client sees the
// close on a stream at or above the GOAWAY's id, unprocessed all the same.
func (c *conn) reject(str *quic.Stream) {
	if withdrawn(str) {
		c.s.counts.withdrawn.Add(1)
		return
	}
	c.s.counts.rejected.Add(1)
	c.ended(str.StreamID())
	str.CancelRead(CodeRequestRejected)
	str.CancelWrite(CodeRequestRejected)
}

// closedByClient reports whether err is the client's close of the
// connection.
func closedByClient(err error) bool {
	var ae *quic.ApplicationError
	return errors.As(err, &ae) && ae.Remote
}

// withdrawn reports whether the client reset str with H3_REQUEST_CANCELLED
// before the server read a byte of it (quic-go drops data a reset
// overtakes): a request it withdrew, as a client may do with a stream it
// opened at or above a GOAWAY's id (RFC 9114 §5.2), which is no request to
// reject. pummel withdraws such a stream before writing to it. It reads
// one byte at most. quic-go lets a stream be accepted before the frame
// that opened it is handled, so it waits for that frame, withdrawWait at
// most (a stream still silent by then is rejected).
func withdrawn(str *quic.Stream) bool {
	_ = str.SetReadDeadline(time.Now().Add(withdrawWait))
	n, err := str.Read(make([]byte, 1))
	var se *quic.StreamError
	return n == 0 && errors.As(err, &se) && se.Remote && se.ErrorCode == CodeRequestCancelled
}

// reset resets a stream in both directions with ResetCode.
func (c *conn) reset(str *quic.Stream) {
	c.s.counts.resets.Add(1)
	c.ended(str.StreamID())
	str.CancelRead(c.b.resetCode())
	str.CancelWrite(c.b.resetCode())
}

// wait waits d (forever if d < 0) and reports whether it passed: the
// client cancelling the stream (counted), the connection ending or the
// server closing cut it short.
func (c *conn) wait(str *quic.Stream, d time.Duration) bool {
	if d == 0 {
		return true
	}
	var timeout <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-timeout:
		return true
	case <-str.Context().Done(): // the write side ended: STOP_SENDING, or the connection
		cause := context.Cause(str.Context())
		if !c.s.counts.cancelledBy(cause) && closedByClient(cause) {
			c.s.counts.abandoned.Add(1)
		}
		return false
	case <-c.s.done:
		return false
	}
}
