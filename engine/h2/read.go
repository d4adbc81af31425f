package h2

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// Feed reads the whole frames at the start of b, appending the streams
// they end to Events (emptied first) and what they call for (acks, window
// updates) to Out. It returns how many bytes it consumed: a partial frame
// is left for the transport to feed again with the bytes that follow. An
// error is a connection error (*ConnError): the connection must close.
func (s *Session) Feed(b []byte) (int, error) {
	s.Events = s.Events[:0]
	if !s.settings && bytes.HasPrefix(b, []byte("HTTP/1.")) {
		return 0, &ConnError{Code: http2.ErrCodeProtocol, Cause: "the server answered in HTTP/1.1: it does not speak HTTP/2 in the clear (h2c)"}
	}
	n := 0
	for len(b)-n >= frameHeaderLen {
		h := b[n : n+frameHeaderLen]
		length := int(h[0])<<16 | int(h[1])<<8 | int(h[2])
		if length > maxFrameSize {
			return n, s.protocolError(http2.ErrCodeFrameSize, "a frame of %d bytes, over the %d the client allows", length, maxFrameSize)
		}
		if len(b)-n < frameHeaderLen+length {
			break
		}
		typ, flags := http2.FrameType(h[3]), http2.Flags(h[4])
		id := binary.BigEndian.Uint32(h[5:]) & (1<<31 - 1)
		payload := b[n+frameHeaderLen : n+frameHeaderLen+length]
		n += frameHeaderLen + length
		if err := s.frame(typ, flags, id, payload); err != nil {
			return n, err
		}
	}
	if s.recvUnacked >= recvWindow/2 {
		s.fr.WriteWindowUpdate(0, uint32(s.recvUnacked)) //nolint:errcheck // appending does not fail
		s.recvUnacked = 0
	}
	return n, nil
}

// frame handles one frame.
func (s *Session) frame(typ http2.FrameType, flags http2.Flags, id uint32, p []byte) error {
	if !s.settings && typ != http2.FrameSettings {
		return s.protocolError(http2.ErrCodeProtocol, "the server's first frame was %s, not SETTINGS", typ)
	}
	if s.hdr.active && typ != http2.FrameContinuation {
		return s.protocolError(http2.ErrCodeProtocol, "a %s frame inside a header block", typ)
	}
	switch typ {
	case http2.FrameData:
		return s.data(flags, id, p)
	case http2.FrameHeaders:
		return s.headers(flags, id, p)
	case http2.FrameContinuation:
		return s.continuation(flags, id, p)
	case http2.FrameRSTStream:
		return s.rstStream(id, p)
	case http2.FrameSettings:
		return s.settingsFrame(flags, id, p)
	case http2.FramePing:
		return s.ping(flags, id, p)
	case http2.FrameGoAway:
		return s.goAwayFrame(id, p)
	case http2.FrameWindowUpdate:
		return s.windowUpdate(id, p)
	case http2.FramePushPromise:
		return s.protocolError(http2.ErrCodeProtocol, "a PUSH_PROMISE, with push disabled")
	}
	return nil // PRIORITY and unknown types are ignored (RFC 9113 §4.1, §5.5)
}

// slot finds the slot of stream id: -1 for a stream that ended (its
// frames are dropped). A stream the client never opened is a connection
// error.
func (s *Session) slot(id uint32, typ http2.FrameType) (int, error) {
	if id == 0 {
		return -1, s.protocolError(http2.ErrCodeProtocol, "a %s frame on stream 0", typ)
	}
	if id%2 == 0 || id >= s.nextID {
		return -1, s.protocolError(http2.ErrCodeProtocol, "a %s frame on stream %d, which the client never opened", typ, id)
	}
	for i := range s.slots {
		if s.slots[i].id == id {
			return i, nil
		}
	}
	return -1, nil
}

// unpad strips a frame's padding.
func (s *Session) unpad(flags http2.Flags, p []byte) ([]byte, error) {
	if flags&http2.FlagDataPadded == 0 { // the same bit for HEADERS
		return p, nil
	}
	if len(p) == 0 || int(p[0]) >= len(p) {
		return nil, s.protocolError(http2.ErrCodeProtocol, "padding longer than its frame")
	}
	return p[1 : len(p)-int(p[0])], nil
}

// data handles a DATA frame: its bytes count against the windows, are
// kept up to KeepBody, and END_STREAM ends the response.
func (s *Session) data(flags http2.Flags, id uint32, p []byte) error {
	i, err := s.slot(id, http2.FrameData)
	if err != nil {
		return err
	}
	s.recvUnacked += int64(len(p))
	if i < 0 {
		return nil
	}
	st := &s.slots[i]
	if st.status == 0 {
		return s.protocolError(http2.ErrCodeProtocol, "DATA on stream %d before its response header", id)
	}
	body, err := s.unpad(flags, p)
	if err != nil {
		return err
	}
	if keep := s.opts.KeepBody - len(st.body); keep > 0 {
		st.body = append(st.body, body[:min(keep, len(body))]...)
	}
	st.received += int64(len(body))
	if st.length >= 0 && st.received > st.length {
		s.malformed(i, true)
		return nil
	}
	if flags&http2.FlagDataEndStream != 0 {
		s.respond(i)
		return nil
	}
	if st.unacked += int64(len(p)); st.unacked >= recvWindow/2 {
		s.fr.WriteWindowUpdate(id, uint32(st.unacked)) //nolint:errcheck // appending does not fail
		st.unacked = 0
	}
	return nil
}

// headers starts a header block: a response's header, an informational
// (1xx) one, or trailers.
func (s *Session) headers(flags http2.Flags, id uint32, p []byte) error {
	i, err := s.slot(id, http2.FrameHeaders)
	if err != nil {
		return err
	}
	block, err := s.unpad(flags, p)
	if err != nil {
		return err
	}
	if flags&http2.FlagHeadersPriority != 0 {
		if len(block) < 5 {
			return s.protocolError(http2.ErrCodeProtocol, "a HEADERS frame too short for its priority")
		}
		block = block[5:]
	}
	s.hdr.slot, s.hdr.id, s.hdr.active, s.hdr.status = i, id, true, 0
	s.hdr.size, s.hdr.length = len(block), -1
	s.hdr.endStream = flags&http2.FlagHeadersEndStream != 0
	if end := flags&http2.FlagHeadersEndHeaders != 0; !end || s.opts.KeepHeaders {
		s.memo.reset() // a block in parts, or one whose fields are kept, is not remembered
		return s.fragment(block, end)
	}
	return s.wholeBlock(block)
}

// wholeBlock reads a header block that came in one frame, unless the
// memo knows what decoding it finds (see blockMemo); with the headers
// kept, every block is decoded.
func (s *Session) wholeBlock(p []byte) error {
	if status, length, ok := s.memo.hit(p); ok {
		s.hdr.active = false
		if s.hdr.slot >= 0 {
			s.hdr.status, s.hdr.length = status, length
		}
		return s.blockEnd()
	}
	if err := s.fragment(p, true); err != nil {
		return err
	}
	s.memo.decoded(p, s.hdr.status, s.hdr.length, s.hdr.slot >= 0)
	return nil
}

// continuation goes on with a header block.
func (s *Session) continuation(flags http2.Flags, id uint32, p []byte) error {
	if !s.hdr.active || id != s.hdr.id {
		return s.protocolError(http2.ErrCodeProtocol, "a CONTINUATION frame outside a header block")
	}
	if s.hdr.size += len(p); s.hdr.size > MaxHeaderBlock {
		return s.protocolError(http2.ErrCodeEnhanceYourCalm, "a header block over %d KiB, still not ended", MaxHeaderBlock>>10)
	}
	return s.fragment(p, flags&http2.FlagContinuationEndHeaders != 0)
}

// fragment feeds part of a header block to the decoder; at the block's
// end it ends the response, or notes its status.
func (s *Session) fragment(p []byte, end bool) error {
	s.dec.SetEmitEnabled(s.hdr.slot >= 0) // a closed stream's block is decoded, for the table, and dropped
	if _, err := s.dec.Write(p); err != nil {
		return s.protocolError(http2.ErrCodeCompression, "a bad header block: %v", err)
	}
	if !end {
		return nil
	}
	s.hdr.active = false
	if err := s.dec.Close(); err != nil {
		return s.protocolError(http2.ErrCodeCompression, "a bad header block: %v", err)
	}
	return s.blockEnd()
}

// blockEnd ends the response at the end of its header block, or notes
// its status.
func (s *Session) blockEnd() error {
	i := s.hdr.slot
	if i < 0 || s.slots[i].id != s.hdr.id { // its stream ended meanwhile (a timeout)
		return nil
	}
	st := &s.slots[i]
	switch {
	case st.status != 0: // trailers
		if !s.hdr.endStream {
			return s.protocolError(http2.ErrCodeProtocol, "trailers on stream %d without END_STREAM", st.id)
		}
	case s.hdr.status == 0:
		return s.protocolError(http2.ErrCodeProtocol, "a response on stream %d without :status", st.id)
	case s.hdr.status < 200: // informational: the final header follows
		st.headers = st.headers[:0]
		return nil
	default:
		st.status, st.length = s.hdr.status, s.hdr.length
	}
	if s.hdr.endStream {
		s.respond(i)
	}
	return nil
}

// MaxKeptHeaders bounds the header fields kept of one response (for a
// script's response()), however many a server sends; HTTP/3's reader
// keeps as many.
const MaxKeptHeaders = 256

// emit takes a decoded header field of the block being read.
func (s *Session) emit(f hpack.HeaderField) {
	if f.Name == ":status" { // the first; a pseudo-header is never repeated
		if v, err := strconv.Atoi(f.Value); err == nil && v >= 100 && v <= 999 && s.hdr.status == 0 {
			s.hdr.status = v
		}
		return
	}
	if f.Name == "content-length" {
		if v, err := strconv.ParseInt(f.Value, 10, 64); err == nil && v >= 0 {
			s.hdr.length = v
		} else {
			s.hdr.length = badLength
		}
		// The fields after it are not decoded into strings unless the
		// headers are kept (those the dynamic table indexes still are).
		s.dec.SetEmitEnabled(s.opts.KeepHeaders)
	}
	if s.opts.KeepHeaders && s.hdr.slot >= 0 && s.slots[s.hdr.slot].id == s.hdr.id {
		st := &s.slots[s.hdr.slot]
		if len(st.headers) < MaxKeptHeaders {
			st.headers = append(st.headers, f)
		}
	}
}

// badLength marks a content-length that is not a number.
const badLength = -2

// respond ends slot i's stream with its response, unless the response is
// malformed: its DATA disagree with its content-length (RFC 9113 §8.1.1;
// a response to HEAD, and a 204 or 304, have no content).
func (s *Session) respond(i int) {
	st := &s.slots[i]
	if st.length != -1 && st.received != st.length && !st.req.head && st.status != 204 && st.status != 304 {
		s.malformed(i, false)
		return
	}
	s.Events = append(s.Events, Event{Slot: i, Kind: Response, Status: st.status, Body: st.body, Headers: st.headers})
	s.end(i)
}

// malformed ends slot i's stream as Malformed, resetting it when the
// server had not ended it (open).
func (s *Session) malformed(i int, open bool) {
	st := &s.slots[i]
	cause := fmt.Sprintf("malformed response: content-length %d, %d bytes of DATA", st.length, st.received)
	if open {
		cause = fmt.Sprintf("malformed response: content-length %d, more bytes of DATA (%d)", st.length, st.received)
		s.fr.WriteRSTStream(st.id, http2.ErrCodeProtocol) //nolint:errcheck // appending does not fail
	}
	if st.length == badLength {
		cause = "malformed response: a content-length that is not a number"
	}
	s.Events = append(s.Events, Event{Slot: i, Kind: Malformed, Cause: cause})
	s.end(i)
}

// rstStream handles the server's reset of a stream.
func (s *Session) rstStream(id uint32, p []byte) error {
	if len(p) != 4 {
		return s.protocolError(http2.ErrCodeFrameSize, "an RST_STREAM of %d bytes", len(p))
	}
	i, err := s.slot(id, http2.FrameRSTStream)
	if err != nil || i < 0 {
		return err
	}
	s.Events = append(s.Events, Event{Slot: i, Kind: Reset, Code: http2.ErrCode(binary.BigEndian.Uint32(p))})
	s.end(i)
	return nil
}

// settingsFrame applies the server's SETTINGS and acknowledges them.
func (s *Session) settingsFrame(flags http2.Flags, id uint32, p []byte) error {
	if id != 0 || len(p)%6 != 0 {
		return s.protocolError(http2.ErrCodeProtocol, "a malformed SETTINGS frame")
	}
	if flags&http2.FlagSettingsAck != 0 {
		return nil
	}
	if err := s.owe(); err != nil {
		return err
	}
	for ; len(p) > 0; p = p[6:] {
		v := binary.BigEndian.Uint32(p[2:])
		switch http2.SettingID(binary.BigEndian.Uint16(p)) {
		case http2.SettingMaxConcurrentStreams:
			s.peerStreams = v
		case http2.SettingInitialWindowSize:
			if v > 1<<31-1 {
				return s.protocolError(http2.ErrCodeFlowControl, "an initial window of %d, over 2^31-1", v)
			}
			delta := int64(v) - int64(s.peerWindow)
			s.peerWindow = int32(v)
			for j := range s.slots {
				if s.slots[j].id != 0 {
					s.slots[j].sendWindow += delta
				}
			}
		case http2.SettingMaxFrameSize:
			if v < 1<<14 || v > 1<<24-1 {
				return s.protocolError(http2.ErrCodeProtocol, "a max frame size of %d", v)
			}
			s.peerFrame = v
		case http2.SettingHeaderTableSize:
			// It bounds the table of the server's decoder, which the
			// client's blocks never use (see NewRequest): nothing to do.
		}
	}
	s.settings = true
	s.fr.WriteSettingsAck() //nolint:errcheck // appending does not fail
	s.resume()
	return nil
}

// ping answers a PING.
func (s *Session) ping(flags http2.Flags, id uint32, p []byte) error {
	if id != 0 || len(p) != 8 {
		return s.protocolError(http2.ErrCodeProtocol, "a malformed PING frame")
	}
	if flags&http2.FlagPingAck != 0 {
		return nil
	}
	if err := s.owe(); err != nil {
		return err
	}
	s.fr.WritePing(true, [8]byte(p)) //nolint:errcheck // appending does not fail
	return nil
}

// owe counts one more acknowledgement queued; past MaxOwed unwritten,
// the server floods control frames and does not read the answers.
func (s *Session) owe() error {
	if s.owed++; s.owed > MaxOwed {
		return s.protocolError(http2.ErrCodeEnhanceYourCalm, "the server sent over %d SETTINGS and PING frames without reading the acknowledgements", MaxOwed)
	}
	return nil
}

// windowUpdate opens a send window, and sends what waited for it.
func (s *Session) windowUpdate(id uint32, p []byte) error {
	if len(p) != 4 {
		return s.protocolError(http2.ErrCodeFrameSize, "a WINDOW_UPDATE of %d bytes", len(p))
	}
	incr := int64(binary.BigEndian.Uint32(p) & (1<<31 - 1))
	if id == 0 {
		if incr == 0 || s.sendWindow+incr > 1<<31-1 {
			return s.protocolError(http2.ErrCodeFlowControl, "a connection window update of %d to %d", incr, s.sendWindow+incr)
		}
		s.sendWindow += incr
		s.resume()
		return nil
	}
	i, err := s.slot(id, http2.FrameWindowUpdate)
	if err != nil || i < 0 {
		return err
	}
	st := &s.slots[i]
	if incr == 0 || st.sendWindow+incr > 1<<31-1 {
		return s.protocolError(http2.ErrCodeFlowControl, "a window update of %d on stream %d, to %d", incr, id, st.sendWindow+incr)
	}
	st.sendWindow += incr
	s.sendBody(st)
	return nil
}

// resume sends the request bodies that waited for a window.
func (s *Session) resume() {
	for i := range s.slots {
		if st := &s.slots[i]; st.id != 0 && st.sent < len(st.req.body) {
			s.sendBody(st)
		}
	}
}
