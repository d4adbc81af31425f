// Package h2 is the client side of an HTTP/2 connection, as a load
// generator needs it: it turns requests into frames and the bytes a server
// sends into stream events, and never touches a socket, a clock or a
// goroutine. The engine's transports move the bytes and keep the timers;
// the engine counts each event by its counting rule.
//
// A Session multiplexes up to a fixed number of slots, each holding one
// stream at a time. Nothing is retried: a stream the server refuses, resets
// or leaves unprocessed in a GOAWAY is reported as such, once.
//
// Frames are read by hand (the 9-byte header, then the payload, with the
// header block fed to hpack's decoder) so that the steady state allocates
// nothing; they are written with http2.Framer.
package h2

import (
	"errors"
	"fmt"
	"math"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// Windows and sizes the client advertises. Its receive windows are large,
// as h2load's, so that flow control never paces a response; it returns
// what it consumed once half of a window is used.
const (
	recvWindow   = 1<<30 - 1
	maxFrameSize = 16384 // the default SETTINGS_MAX_FRAME_SIZE, which the client keeps
	// MaxFrame is the largest frame a Session reads whole: the transport
	// keeps a partial frame of up to this many bytes until the rest comes.
	MaxFrame        = frameHeaderLen + maxFrameSize
	frameHeaderLen  = 9
	maxHeaderString = 64 << 10
	// MaxHeaderBlock bounds one response header block as it arrives (its
	// HEADERS and CONTINUATION frames together): a server that never ends
	// a block is a protocol error, not a buffer that grows.
	MaxHeaderBlock = 256 << 10
	// MaxOwed bounds the control frames (SETTINGS and PING
	// acknowledgements) queued in Out and not yet written: a server that
	// floods them and reads nothing is a protocol error, not a queue that
	// grows. Each must be answered (RFC 9113 §6.5.3, §6.7), so they are
	// counted, not merged; the bound is x/net/http2's server's.
	MaxOwed = 10000
	// initialWindow is the window of RFC 9113 before any SETTINGS.
	initialWindow = 65535
	// decoderTable is the size of the client's HPACK table, the default
	// SETTINGS_HEADER_TABLE_SIZE, which the client keeps.
	decoderTable = 4096
)

// Preface is what the client sends first, with its SETTINGS.
const Preface = http2.ClientPreface

// Options configure a Session.
type Options struct {
	// Slots bounds the streams open at once (--streams).
	Slots int
	// KeepBody is how many bytes of each response body are kept for
	// checks and scripts; the rest is counted and dropped.
	KeepBody int
	// KeepHeaders keeps each response's header fields.
	KeepHeaders bool
}

// Session is one HTTP/2 connection's client state. Its methods append
// what is to be written to Out; the transport writes Out and empties it.
// It is used from one goroutine at a time.
type Session struct {
	// Out holds frames to be written, in order.
	Out []byte
	// Events holds what the last Feed found, for the caller to handle
	// before the next Feed or Open.
	Events []Event

	opts  Options
	fr    *http2.Framer
	dec   *hpack.Decoder
	memo  blockMemo // the header block dec need not decode again
	slots []stream

	nextID   uint32 // the id of the next stream opened
	open     int    // slots holding an open stream
	settings bool   // the server's first SETTINGS arrived

	// The server's settings and the client's send windows.
	peerStreams uint32
	peerWindow  int32
	peerFrame   uint32
	sendWindow  int64
	// recvUnacked is connection-level data consumed and not yet returned
	// with a WINDOW_UPDATE.
	recvUnacked int64

	goAway bool // the server sent a GOAWAY
	// owed counts the acknowledgements queued in Out since it was last
	// written whole (see Sent).
	owed int
	// held is set when a request body stopped at maxQueued.
	held bool

	// The header block being read: the slot it belongs to (-1 for a
	// stream that ended, whose block is decoded and dropped), its stream,
	// and whether the HEADERS frame ended the stream.
	hdr struct {
		slot      int
		id        uint32
		endStream bool
		active    bool
		status    int
		// size is the bytes of the block so far; length the value of its
		// content-length field, -1 without one.
		size   int
		length int64
	}
}

// stream is a slot's stream.
type stream struct {
	id         uint32 // 0: the slot is free
	req        *Request
	sent       int   // body bytes sent
	sendWindow int64 // the server's window for this stream
	unacked    int64 // body bytes consumed since the last WINDOW_UPDATE
	status     int   // the final status, once its header block ended
	length     int64 // the response's content-length, -1 without one
	received   int64 // the response's body bytes so far
	body       []byte
	headers    []hpack.HeaderField
}

// EventKind says how a stream ended.
type EventKind uint8

const (
	// Response: the stream ended with a complete response.
	Response EventKind = iota
	// Reset: the server reset the stream (RST_STREAM).
	Reset
	// Unprocessed: a GOAWAY said the server will not process the stream.
	Unprocessed
	// Malformed: the response broke HTTP/2's rules for a message (RFC
	// 9113 §8.1.1): its DATA disagreed with its content-length. The
	// client reset the stream if it was still open.
	Malformed
)

// Event is the end of one slot's stream.
type Event struct {
	Slot int
	Kind EventKind
	// Status, Body and Headers are a Response's; Body and Headers are
	// valid until the slot is opened again.
	Status  int
	Body    []byte
	Headers []hpack.HeaderField
	// Code is the error code of a Reset or of the GOAWAY.
	Code http2.ErrCode
	// Cause says what was malformed.
	Cause string
}

// ConnError is a connection error: the server broke the protocol. The
// Session has queued a GOAWAY; the connection must close, and every open
// stream ends with it.
type ConnError struct {
	Code  http2.ErrCode
	Cause string
}

func (e *ConnError) Error() string { return e.Cause }

// NewSession starts a client session: Out holds the preface, the client's
// SETTINGS and the connection's window update.
func NewSession(o Options) *Session {
	s := &Session{opts: o, slots: make([]stream, max(o.Slots, 1))}
	s.fr = http2.NewFramer((*appender)(&s.Out), nil)
	s.dec = hpack.NewDecoder(decoderTable, s.emit)
	s.dec.SetMaxStringLength(maxHeaderString)
	s.Reset()
	return s
}

// Reset readies the session for a new connection: Out holds the preface,
// and every slot is free.
func (s *Session) Reset() {
	for i := range s.slots {
		s.slots[i].id = 0
	}
	s.Out = append(s.Out[:0], Preface...)
	s.Events = s.Events[:0]
	s.nextID, s.open, s.settings = 1, 0, false
	s.peerStreams, s.peerWindow, s.peerFrame = math.MaxUint32, initialWindow, maxFrameSize
	s.sendWindow, s.recvUnacked = initialWindow, 0
	s.goAway, s.owed, s.held = false, 0, false
	s.hdr.active = false
	s.memo.reset()
	s.dec = hpack.NewDecoder(decoderTable, s.emit)
	s.dec.SetMaxStringLength(maxHeaderString)
	s.fr.WriteSettings( //nolint:errcheck // appending does not fail
		http2.Setting{ID: http2.SettingEnablePush, Val: 0},
		http2.Setting{ID: http2.SettingInitialWindowSize, Val: recvWindow},
		http2.Setting{ID: http2.SettingMaxHeaderListSize, Val: maxHeaderString},
	)
	s.fr.WriteWindowUpdate(0, recvWindow-initialWindow) //nolint:errcheck // appending does not fail
}

// Sent notes that the transport wrote Out whole, and empties it; Out then
// holds the request bodies that waited for room (see maxQueued), for the
// transport to write in turn.
func (s *Session) Sent() {
	s.Out, s.owed = s.Out[:0], 0
	if s.held {
		s.held = false
		s.resume()
	}
}

// Progress is how far a stream got, for the cause of its timeout.
type Progress uint8

const (
	// Waiting: the request left whole and no byte of a response came.
	Waiting Progress = iota
	// Writing: the request's body has not all left (flow control held
	// it, or the server does not read).
	Writing
	// Responding: the response's header came, and its end did not.
	Responding
)

// ProgressOf tells how far slot's stream got.
func (s *Session) ProgressOf(slot int) Progress {
	st := &s.slots[slot]
	switch {
	case st.status != 0 || (s.hdr.active && s.hdr.slot == slot):
		return Responding
	case st.req != nil && st.sent < len(st.req.body):
		return Writing
	}
	return Waiting
}

// Ready reports whether the server's first SETTINGS arrived: streams open
// only then, so that its stream limit holds from the first.
func (s *Session) Ready() bool { return s.settings }

// Limit is how many streams may be open at once: the slots, or fewer if
// the server's SETTINGS_MAX_CONCURRENT_STREAMS says so.
func (s *Session) Limit() int { return int(min(uint32(len(s.slots)), s.peerStreams)) }

// ServerLimit is the server's SETTINGS_MAX_CONCURRENT_STREAMS, or
// math.MaxUint32 when it set none.
func (s *Session) ServerLimit() uint32 { return s.peerStreams }

// Open reports how many streams are open.
func (s *Session) Open() int { return s.open }

// CanOpen reports whether a stream may open now.
func (s *Session) CanOpen() bool { return s.settings && !s.Draining() && s.open < s.Limit() }

// Busy reports whether slot holds an open stream.
func (s *Session) Busy(slot int) bool { return s.slots[slot].id != 0 }

// Start opens a stream for req on a free slot, appending its HEADERS and
// as much of its body as the windows allow to Out. The caller checks
// CanOpen first.
func (s *Session) Start(slot int, req *Request) {
	st := &s.slots[slot]
	*st = stream{id: s.nextID, req: req, sendWindow: int64(s.peerWindow), length: -1, body: st.body[:0], headers: st.headers[:0]}
	s.nextID += 2
	s.open++
	block, endStream := req.block, len(req.body) == 0
	first := block[:min(len(block), int(s.peerFrame))]
	s.writeHeaders(st.id, first, endStream, len(first) == len(block))
	for rest := block[len(first):]; len(rest) > 0; {
		part := rest[:min(len(rest), int(s.peerFrame))]
		rest = rest[len(part):]
		s.fr.WriteContinuation(st.id, len(rest) == 0, part) //nolint:errcheck // appending does not fail
	}
	if !endStream {
		s.sendBody(st)
	}
}

// writeHeaders appends a HEADERS frame as http2.Framer.WriteHeaders
// would, without its checks and its copy through an io.Writer: the one
// frame every request writes.
func (s *Session) writeHeaders(id uint32, fragment []byte, endStream, endHeaders bool) {
	var flags http2.Flags
	if endStream {
		flags |= http2.FlagHeadersEndStream
	}
	if endHeaders {
		flags |= http2.FlagHeadersEndHeaders
	}
	n := len(fragment)
	s.Out = append(s.Out, byte(n>>16), byte(n>>8), byte(n), byte(http2.FrameHeaders), byte(flags),
		byte(id>>24), byte(id>>16), byte(id>>8), byte(id))
	s.Out = append(s.Out, fragment...)
}

// Cancel ends slot's stream with RST_STREAM(CANCEL): a request past its
// timeout. What the server still sends on it is dropped.
func (s *Session) Cancel(slot int) {
	st := &s.slots[slot]
	if st.id == 0 {
		return
	}
	s.fr.WriteRSTStream(st.id, http2.ErrCodeCancel) //nolint:errcheck // appending does not fail
	s.end(slot)
}

// Abandon frees every slot without a word to the server: the connection
// is closing, and each open stream was counted by the caller.
func (s *Session) Abandon() {
	for i := range s.slots {
		s.slots[i].id = 0
	}
	s.open = 0
}

// end frees a slot.
func (s *Session) end(slot int) {
	if s.slots[slot].id != 0 {
		s.slots[slot].id = 0
		s.open--
	}
}

// maxQueued bounds the request body queued in Out: however large the
// bodies and the server's windows, a connection holds about this much of
// them at a time, and queues more once Out is written (Sent).
const maxQueued = 1 << 20

// sendBody appends as much of st's body as the windows, and maxQueued,
// allow.
func (s *Session) sendBody(st *stream) {
	body := st.req.body
	for st.sent < len(body) {
		if len(s.Out) >= maxQueued {
			s.held = true // the rest once Out is written
			return
		}
		n := min(int64(len(body)-st.sent), st.sendWindow, s.sendWindow, int64(s.peerFrame))
		if n <= 0 {
			return // the rest when the server opens a window
		}
		end := st.sent + int(n)
		s.fr.WriteData(st.id, end == len(body), body[st.sent:end]) //nolint:errcheck // appending does not fail
		st.sent, st.sendWindow, s.sendWindow = end, st.sendWindow-n, s.sendWindow-n
	}
}

// sendGoAway appends a GOAWAY with code, before the connection closes.
func (s *Session) sendGoAway(code http2.ErrCode) {
	s.fr.WriteGoAway(0, code, nil) //nolint:errcheck // appending does not fail
}

// protocolError makes a connection error and queues the GOAWAY it calls for.
func (s *Session) protocolError(code http2.ErrCode, format string, args ...any) error {
	s.sendGoAway(code)
	return &ConnError{Code: code, Cause: fmt.Sprintf(format, args...)}
}

// appender is an io.Writer appending to a byte slice.
type appender []byte

func (a *appender) Write(p []byte) (int, error) {
	*a = append(*a, p...)
	return len(p), nil
}

// ErrNoSettings is why a connection whose server sent no SETTINGS closes.
var ErrNoSettings = errors.New("the server sent no SETTINGS")
