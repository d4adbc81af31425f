package h3fixture

import (
	"errors"
	"fmt"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/quic-go/quic-go"
)

// Behaviour describes how a server (Start) answers. The zero value
// completes the handshake (ALPN "h3"), opens the server's control stream
// with an empty SETTINGS frame (so the client may not use a QPACK dynamic
// table), drains the client's control and QPACK streams, and answers each
// request stream, once its FIN has arrived, with a HEADERS frame
// (":status 200", "content-length: 0") and FIN.
//
// "Every Nth stream" (RejectEvery, ResetEvery, StallEvery) numbers the
// request streams of all connections, 1, 2, 3, …, in the order the server
// accepts them (streams refused by a GOAWAY take no number); a stream
// whose number several of them pick is rejected before reset, and reset
// before stalled. So over any number of streams each count is exact.
// "After N" counts per connection (GoAwayAfter, CloseAfter) or per
// server (StatelessResetAfter). Start refuses combinations that could
// not do what they say:
//
//   - NoH3ALPN and NoHandshake each combine with nothing.
//   - At most one fault: ReservedFrame, BadQPACK, ContentLengthMismatch.
//   - At most one ending: GoAwayAfter, CloseAfter, StatelessResetAfter;
//     ReservedFrame and BadQPACK combine with none (the client closes
//     the connection on the first faulty response).
//   - CloseAfter and StatelessResetAfter combine with no "every Nth"
//     schedule: streams accepted while a connection ends would take
//     numbers by chance.
//   - ResetCode needs ResetEvery.
type Behaviour struct {
	// Status is the response status, 200-599; 0 means 200.
	Status int
	// BodySize is the response body length, in 'x' bytes, sent in one
	// DATA frame after the HEADERS.
	BodySize int
	// Delay is how long the server waits, once a request's FIN has
	// arrived, before it answers it (faulty answers too, not resets). The
	// client cancelling the stream or the connection ending cuts it short.
	Delay time.Duration
	// MaxStreams is the number of concurrent request streams the server
	// allows a client (quic.Config.MaxIncomingStreams); 0 means quic-go's
	// default, 100.
	MaxStreams int64

	// RejectEvery resets every RejectEvery-th stream with
	// H3_REQUEST_REJECTED (both directions) without reading its request (a
	// byte at most): counted by Rejected (Withdrawn if the client cancelled
	// it first), not by Requests.
	RejectEvery int
	// ResetEvery resets every ResetEvery-th stream, once its HEADERS are
	// read (counted by Requests), with ResetCode in both directions
	// (RESET_STREAM and STOP_SENDING) instead of answering it: counted by
	// Resets.
	ResetEvery int
	// ResetCode is ResetEvery's code; 0 means H3_INTERNAL_ERROR (0x102).
	ResetCode quic.StreamErrorCode
	// StallEvery never answers every StallEvery-th stream (counted by
	// Stalled), after reading the whole request: it stays open until the
	// client cancels it (counted by Cancelled with H3_REQUEST_CANCELLED)
	// or the connection ends.
	StallEvery int

	// GoAwayAfter sends, once a connection has accepted GoAwayAfter
	// request streams, GOAWAY on the control stream with the id of the
	// next stream (the last one accepted + 4). It rejects each stream at or
	// above that id with H3_REQUEST_REJECTED (counted by Rejected, or by
	// Withdrawn if the client cancelled it first), serves
	// the ones below it as usual, and once they are finished and the
	// client has acknowledged each FIN or reset the server sent on them,
	// waits 500 ms more for the client's readers (quic-go fails a stream
	// on its connection's close, even with its data received) and closes
	// the connection with H3_NO_ERROR (0x100), unless the client closed
	// it first. A stream the client opens as the connection closes sees
	// that close instead of a reset.
	GoAwayAfter int
	// SilentUni opens, before the control stream, a unidirectional stream
	// it never sends a byte on: the client sees it first (QUIC opens the
	// lower stream ids with a higher one) and never learns its type.
	SilentUni bool
	// CloseAfter closes a connection with H3_INTERNAL_ERROR (0x102) as
	// soon as its CloseAfter-th request's HEADERS have been read: that
	// request and any still being answered (Delay, a stall, a request
	// body) get no response. Requests arriving on a connection that is
	// closing are not counted.
	CloseAfter int
	// StatelessResetAfter crashes the server once it has read
	// StatelessResetAfter requests in all, leaving that one and any still
	// being answered without a response: it closes its quic.Transport
	// without sending CONNECTION_CLOSE and starts a new one on the same
	// UDP socket with the same stateless reset key, which answers each
	// packet of an old connection (larger than 42 bytes: a request, not a
	// bare PING or ACK) with a stateless reset, so the client sees
	// *quic.StatelessResetError. It accepts new connections, which it
	// serves as usual; Restarted reports when it is listening. Requests
	// read by the crashing transport after the StatelessResetAfter-th are
	// not counted.
	StatelessResetAfter int

	// NoH3ALPN offers only ALPN "h2" in the TLS handshake, so a client
	// asking for "h3" fails it with CRYPTO_ERROR 0x178 (no application
	// protocol).
	NoH3ALPN bool
	// NoHandshake reads UDP datagrams and never answers, so a client's
	// handshake times out.
	NoHandshake bool

	// ReservedFrame precedes each response with a frame of the reserved
	// type 0x02 (HTTP/2's PRIORITY; empty), which a client must treat as
	// a connection error H3_FRAME_UNEXPECTED. The response that follows
	// is the usual one. Counted by Faults, not Responses.
	ReservedFrame bool
	// BadQPACK answers each request with a HEADERS frame whose block
	// refers to the QPACK dynamic table (a nonzero Required Insert
	// Count), which the server never filled (it opens no encoder stream):
	// QPACK_DECOMPRESSION_FAILED for the client. Then FIN. Counted by
	// Faults, not Responses.
	BadQPACK bool
	// ContentLengthMismatch announces "content-length: BodySize+5" but
	// sends BodySize bytes, then FIN. Counted by Faults, not Responses.
	ContentLengthMismatch bool
}

// validate reports the first reason b cannot be served as documented.
func (b *Behaviour) validate() error {
	if err := b.checkRanges(); err != nil {
		return err
	}
	faults := fixture.Count(b.ReservedFrame, b.BadQPACK, b.ContentLengthMismatch)
	endings := fixture.Count(b.GoAwayAfter > 0, b.CloseAfter > 0, b.StatelessResetAfter > 0)
	schedules := b.RejectEvery > 0 || b.ResetEvery > 0 || b.StallEvery > 0
	switch {
	case b.NoH3ALPN && *b != Behaviour{NoH3ALPN: true}:
		return errors.New("h3fixture: NoH3ALPN combines with nothing")
	case b.NoHandshake && *b != Behaviour{NoHandshake: true}:
		return errors.New("h3fixture: NoHandshake combines with nothing")
	case faults > 1:
		return errors.New("h3fixture: at most one of ReservedFrame, BadQPACK, ContentLengthMismatch")
	case endings > 1:
		return errors.New("h3fixture: at most one of GoAwayAfter, CloseAfter, StatelessResetAfter")
	case endings > 0 && (b.ReservedFrame || b.BadQPACK):
		return errors.New("h3fixture: ReservedFrame and BadQPACK combine with no GoAwayAfter, CloseAfter or StatelessResetAfter")
	case schedules && (b.CloseAfter > 0 || b.StatelessResetAfter > 0):
		return errors.New("h3fixture: CloseAfter and StatelessResetAfter combine with no RejectEvery, ResetEvery or StallEvery")
	case b.ResetCode != 0 && b.ResetEvery == 0:
		return errors.New("h3fixture: ResetCode needs ResetEvery")
	}
	return nil
}

// checkRanges rejects negative counts and impossible statuses.
func (b *Behaviour) checkRanges() error {
	if b.BodySize < 0 || b.Delay < 0 || b.MaxStreams < 0 || b.RejectEvery < 0 || b.ResetEvery < 0 ||
		b.StallEvery < 0 || b.GoAwayAfter < 0 || b.CloseAfter < 0 || b.StatelessResetAfter < 0 {
		return errors.New("h3fixture: negative Behaviour field")
	}
	if b.Status != 0 && (b.Status < 200 || b.Status > 599) {
		return fmt.Errorf("h3fixture: status %d out of range 200-599", b.Status)
	}
	return nil
}

// status returns the response status.
func (b *Behaviour) status() int {
	if b.Status == 0 {
		return 200
	}
	return b.Status
}

// resetCode returns ResetEvery's code.
func (b *Behaviour) resetCode() quic.StreamErrorCode {
	if b.ResetCode == 0 {
		return CodeInternalError
	}
	return b.ResetCode
}

// fault reports whether every response is faulty.
func (b *Behaviour) fault() bool { return b.ReservedFrame || b.BadQPACK || b.ContentLengthMismatch }

// every reports whether stream n is picked by a schedule of one every k.
func every(n int64, k int) bool { return k > 0 && n%int64(k) == 0 }
