package h2fixture

import (
	"errors"
	"fmt"

	"github.com/pummel-dev/pummel/internal/fixture"
	"golang.org/x/net/http2"
)

// maxWindow is the largest flow-control window HTTP/2 allows, 2^31-1.
const maxWindow = 1<<31 - 1

// Behaviour describes how a raw server (Start) answers. The zero value
// reads the client preface, sends an empty SETTINGS frame, acks the
// client's SETTINGS, answers PINGs, grants WINDOW_UPDATEs for request
// bodies as it reads them, and answers every request (once its END_STREAM
// is seen) with HEADERS ":status 200", "content-length: 0" and END_STREAM.
// Response DATA respects the client's flow-control windows and
// SETTINGS_MAX_FRAME_SIZE. Header blocks use no HPACK dynamic table.
//
// "Every Nth stream" (ResetEvery, StallEvery) counts the streams the server
// decides to answer across all connections, so the counts are exact over
// any number of requests; "after N streams" (GoAwayAfter, CloseAfter,
// ResetConnAfter) counts the streams opened on one connection. Start
// refuses combinations that could not do what they say:
//
//   - A hostile server (NoSettings, FloodPings, FloodSettings,
//     ContinuationFlood, SettingsThenGoAway) combines with nothing but TLS.
//   - At most one fault: BadFrame, BadHPACK, WindowOverflow,
//     AnswerUnopened; a fault combines with no ending and no schedule.
//   - At most one ending: GoAwayAfter, CloseAfter, ResetConnAfter.
//   - ResetEvery and StallEvery are exclusive.
//   - RefuseBeyond needs MaxConcurrentStreams or ZeroStreams; DataChunk
//     needs BodySize; Window1, InitialWindowSize and ZeroWindow are
//     exclusive; ZeroStreams and MaxConcurrentStreams are exclusive.
//   - StallMidBody needs a BodySize above it; ContentLength and
//     StallMidBody combine with no fault.
type Behaviour struct {
	// TLS serves h2 over TLS (self-signed, ALPN "h2"); see Server.ClientTLS.
	// Without it the server speaks h2c with prior knowledge.
	TLS bool

	// Status is the response status, 200-599; 0 means 200.
	Status int
	// BodySize is the response body length, in 'x' bytes.
	BodySize int
	// DataChunk splits the response body into DATA frames of at most
	// DataChunk bytes (they are also bounded by the client's windows and
	// SETTINGS_MAX_FRAME_SIZE).
	DataChunk int
	// Continuation splits each response header block into fragments of
	// Continuation bytes: HEADERS then CONTINUATION frames.
	Continuation int

	// MaxConcurrentStreams, if not 0, is advertised as
	// SETTINGS_MAX_CONCURRENT_STREAMS (for 0, see ZeroStreams). A stream
	// opened while that many are open (as the server sees it) counts as a
	// Violation.
	MaxConcurrentStreams uint32
	// RefuseBeyond answers such a stream with RST_STREAM(REFUSED_STREAM)
	// (counted by Refused) instead of serving it.
	RefuseBeyond bool
	// InitialWindowSize, if not 0, is advertised as
	// SETTINGS_INITIAL_WINDOW_SIZE (at most 2^31-1).
	InitialWindowSize uint32
	// Window1 advertises SETTINGS_INITIAL_WINDOW_SIZE = 1 and grants each
	// stream one byte at a time, as it reads it, so a request body
	// trickles in one-byte DATA frames. (The connection window starts at
	// 65,535 by the protocol and cannot be lowered; it is replenished
	// exactly by what is read.)
	Window1 bool

	// ResetEvery answers every ResetEvery-th stream with RST_STREAM(ResetCode)
	// instead of a response.
	ResetEvery int
	// ResetCode is the code of ResetEvery's RST_STREAM (0 is NO_ERROR).
	ResetCode http2.ErrCode
	// StallEvery never answers every StallEvery-th stream; the stream stays
	// open until the client resets it or the connection ends.
	StallEvery int

	// GoAwayAfter sends, right after the GoAwayAfter-th HEADERS of a
	// connection, GOAWAY(last-stream-id = that stream, NO_ERROR); it
	// answers the streams up to that id, ignores later ones (counted by
	// Streams, never answered), and closes the connection cleanly once the
	// others are answered.
	GoAwayAfter int
	// CloseAfter closes the connection cleanly (FIN) on receiving its
	// CloseAfter-th HEADERS, leaving that stream (and any other still
	// open) unanswered.
	CloseAfter int
	// ResetConnAfter is CloseAfter with a TCP RST (SO_LINGER 0). Frames
	// written in the same moment as the reset (responses to requests that
	// arrived together with the ResetConnAfter-th HEADERS) may be lost.
	ResetConnAfter int

	// NoSettings reads the preface and then never writes anything, so a
	// client waiting for the server's SETTINGS never starts.
	NoSettings bool

	// BadFrame answers the first request of each connection with bytes
	// that are not a frame ("HTTP/1.1 400 Bad Request\r\n\r\n", read as a
	// 4.7 MB frame header) and then answers nothing more.
	BadFrame bool
	// BadHPACK answers the first request of each connection with a HEADERS
	// frame whose block is invalid HPACK (index 0), then answers nothing
	// more.
	BadHPACK bool
	// WindowOverflow answers the first request of each connection with a
	// connection WINDOW_UPDATE of 2^31-1, which overflows the client's
	// send window, then answers nothing more.
	WindowOverflow bool
	// AnswerUnopened sends, before the first response of each connection,
	// a complete response on stream 2^31-1, which the client never opened;
	// it then answers the real streams normally.
	AnswerUnopened bool

	// The hostile servers of hostile.go: each is all the server does.

	// FloodPings sends the server's SETTINGS (with the largest initial
	// window) and a WINDOW_UPDATE that opens the connection's window as
	// wide, so that a request body is held by nothing but the socket, then
	// PING frames as fast as the connection takes them; it never reads
	// again, so the client's acks (and any request) pile up on its side.
	// It stops when the connection breaks.
	FloodPings bool
	// FloodSettings is FloodPings with empty SETTINGS frames, each of
	// which the client must ack.
	FloodSettings bool
	// ContinuationFlood answers the first request of each connection with
	// a HEADERS frame without END_HEADERS, then CONTINUATION frames of
	// valid HPACK (literal fields, never indexed, a few KB each) that
	// never end the block, as fast as the connection takes them; it never
	// reads again and stops when the connection breaks.
	ContinuationFlood bool
	// SettingsThenGoAway sends its SETTINGS and GOAWAY(last-stream-id 0,
	// NO_ERROR) in one write, then reads and discards what the client
	// sends until it closes. Each HEADERS frame received (all come after
	// the GOAWAY) opens no stream to answer but counts in Streams and as
	// a Violation (RFC 9113 §6.8).
	SettingsThenGoAway bool

	// ZeroStreams advertises SETTINGS_MAX_CONCURRENT_STREAMS = 0: every
	// stream opened counts as a Violation (and is refused if RefuseBeyond).
	ZeroStreams bool
	// ZeroWindow advertises SETTINGS_INITIAL_WINDOW_SIZE = 0 and never
	// widens a stream's window, so a client that respects it cannot send
	// a request body. DATA sent anyway counts as a Violation; a request
	// is answered once its END_STREAM arrives, as usual.
	ZeroWindow bool
	// ContentLength, if not 0, is the content-length the response header
	// announces in place of BodySize, which is still the body sent.
	ContentLength int
	// StallMidBody sends each response's HEADERS (without END_STREAM) and
	// the first StallMidBody bytes of its body, then nothing more on that
	// stream: it stays open until the client resets it or the connection
	// ends.
	StallMidBody int
}

// validate reports the first reason b cannot be served as documented.
func (b *Behaviour) validate() error {
	if err := b.checkRanges(); err != nil {
		return err
	}
	faults := fixture.Count(b.BadFrame, b.BadHPACK, b.WindowOverflow, b.AnswerUnopened)
	endings := fixture.Count(b.GoAwayAfter > 0, b.CloseAfter > 0, b.ResetConnAfter > 0)
	if err := b.checkHostile(); err != nil {
		return err
	}
	switch {
	case faults > 1:
		return errors.New("h2fixture: at most one of BadFrame, BadHPACK, WindowOverflow, AnswerUnopened")
	case endings > 1:
		return errors.New("h2fixture: at most one of GoAwayAfter, CloseAfter, ResetConnAfter")
	case faults == 1 && (endings > 0 || b.ResetEvery > 0 || b.StallEvery > 0):
		return errors.New("h2fixture: a fault combines with no ending and no ResetEvery or StallEvery")
	case b.ResetEvery > 0 && b.StallEvery > 0:
		return errors.New("h2fixture: ResetEvery and StallEvery are exclusive")
	case b.DataChunk > 0 && b.BodySize == 0:
		return errors.New("h2fixture: DataChunk needs BodySize")
	case fixture.Count(b.Window1, b.InitialWindowSize > 0, b.ZeroWindow) > 1:
		return errors.New("h2fixture: Window1, InitialWindowSize and ZeroWindow are exclusive")
	case b.ZeroStreams && b.MaxConcurrentStreams > 0:
		return errors.New("h2fixture: ZeroStreams and MaxConcurrentStreams are exclusive")
	case b.RefuseBeyond && b.MaxConcurrentStreams == 0 && !b.ZeroStreams:
		return errors.New("h2fixture: RefuseBeyond needs MaxConcurrentStreams or ZeroStreams")
	case b.StallMidBody > 0 && b.StallMidBody >= b.BodySize:
		return errors.New("h2fixture: StallMidBody needs a BodySize above it")
	case faults == 1 && (b.ContentLength > 0 || b.StallMidBody > 0):
		return errors.New("h2fixture: a fault combines with neither ContentLength nor StallMidBody")
	case b.ResetCode != 0 && b.ResetEvery == 0:
		return errors.New("h2fixture: ResetCode needs ResetEvery")
	}
	return nil
}

// checkRanges rejects negative counts, impossible statuses and windows.
func (b *Behaviour) checkRanges() error {
	if b.BodySize < 0 || b.DataChunk < 0 || b.Continuation < 0 || b.ResetEvery < 0 ||
		b.StallEvery < 0 || b.GoAwayAfter < 0 || b.CloseAfter < 0 || b.ResetConnAfter < 0 ||
		b.ContentLength < 0 || b.StallMidBody < 0 {
		return errors.New("h2fixture: negative Behaviour field")
	}
	if b.Status != 0 && (b.Status < 200 || b.Status > 599) {
		return fmt.Errorf("h2fixture: status %d out of range 200-599", b.Status)
	}
	if b.InitialWindowSize > maxWindow {
		return fmt.Errorf("h2fixture: InitialWindowSize %d above 2^31-1", b.InitialWindowSize)
	}
	return nil
}

// fault reports whether b replaces the first response of a connection by
// a protocol violation after which nothing more is answered.
func (b *Behaviour) fault() bool { return b.BadFrame || b.BadHPACK || b.WindowOverflow }

// recvWindow returns the initial stream window the server advertises.
func (b *Behaviour) recvWindow() int64 {
	switch {
	case b.ZeroWindow:
		return 0
	case b.Window1:
		return 1
	case b.InitialWindowSize > 0:
		return int64(b.InitialWindowSize)
	}
	return defaultWindow
}

// streamLimit returns the SETTINGS_MAX_CONCURRENT_STREAMS the server
// advertises, and whether it advertises one.
func (b *Behaviour) streamLimit() (uint32, bool) {
	if b.ZeroStreams {
		return 0, true
	}
	return b.MaxConcurrentStreams, b.MaxConcurrentStreams > 0
}
