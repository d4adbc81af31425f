package h3

import (
	"bufio"
	"io"

	"github.com/quic-go/quic-go/quicvarint"
)

// Unidirectional stream types (RFC 9114 §6.2, RFC 9204 §4.2).
const (
	StreamControl      = 0x0
	StreamPush         = 0x1
	StreamQPACKEncoder = 0x2
	StreamQPACKDecoder = 0x3
)

// settingMaxFieldSection is SETTINGS_MAX_FIELD_SECTION_SIZE.
const settingMaxFieldSection = 0x6

// maxControlFrame bounds the payload of a SETTINGS or GOAWAY frame the
// client reads: a hostile server's claim of more is an error, not an
// allocation.
const maxControlFrame = 16 << 10

// ClientControl is what the client writes on its control stream, once,
// and never closes: the stream's type and its SETTINGS. It asks for no
// QPACK dynamic table (capacity 0 is the default) and tells the largest
// header section it reads.
func ClientControl() []byte {
	settings := quicvarint.Append(nil, settingMaxFieldSection)
	settings = quicvarint.Append(settings, MaxFieldSection)
	return appendFrame(quicvarint.Append(nil, StreamControl), FrameSettings, settings)
}

// ReadControl reads the server's control stream, after its type, until it
// ends or breaks the protocol: its SETTINGS first, then each GOAWAY,
// handed to goAway with the first stream id the server will not process.
// It always returns an error: a *ProtocolError, or the stream's own.
func ReadControl(br *bufio.Reader, goAway func(id uint64)) error {
	var last uint64
	seenGoAway := false
	for first := true; ; first = false {
		t, n, err := readFrameHead(br)
		if err != nil {
			return err
		}
		switch ft := FrameType(t); {
		case first && ft != FrameSettings:
			return protocolError(MissingSettings, "the server's control stream begins with frame type %#x, not SETTINGS", t)
		case ft == FrameSettings && !first:
			return protocolError(FrameUnexpected, "a second SETTINGS frame")
		case ft == FrameGoAway:
			id, err := readGoAway(br, n)
			if err != nil {
				return err
			}
			if id%4 != 0 || seenGoAway && id > last {
				return protocolError(IDError, "GOAWAY with stream id %d (after %d)", id, last)
			}
			last, seenGoAway = id, true
			goAway(id)
			continue
		case ft == FrameData || ft == FrameHeaders || ft == 0x2 || ft == 0x5 || ft == 0x6 || ft == 0x8 || ft == 0x9:
			return protocolError(FrameUnexpected, "frame type %#x on the control stream", t)
		case n > maxControlFrame && ft == FrameSettings:
			return protocolError(ExcessiveLoad, "a SETTINGS frame of %d bytes", n)
		}
		for left := n; left > 0; { // SETTINGS' values, CANCEL_PUSH, unknown types
			k, err := br.Discard(int(min(left, 1<<30)))
			if err != nil {
				return err
			}
			left -= uint64(k)
		}
	}
}

// readFrameHead reads a frame's type and length.
func readFrameHead(br *bufio.Reader) (t, n uint64, err error) {
	if t, err = quicvarint.Read(br); err != nil {
		return 0, 0, closedCritical(err)
	}
	if n, err = quicvarint.Read(br); err != nil {
		return 0, 0, closedCritical(err)
	}
	return t, n, nil
}

// readGoAway reads a GOAWAY frame's payload of n bytes: one stream id.
func readGoAway(br *bufio.Reader, n uint64) (uint64, error) {
	if n == 0 || n > 8 {
		return 0, protocolError(FrameError, "a GOAWAY frame of %d bytes", n)
	}
	var p [8]byte
	if _, err := io.ReadFull(br, p[:n]); err != nil {
		return 0, closedCritical(err)
	}
	id, k, err := quicvarint.Parse(p[:n])
	if err != nil || k != int(n) {
		return 0, protocolError(FrameError, "a GOAWAY frame whose id does not parse")
	}
	return id, nil
}

// closedCritical names the end of a control stream: the server may never
// close it (RFC 9114 §6.2.1).
func closedCritical(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return protocolError(ClosedCriticalStream, "the server closed its control stream")
	}
	return err
}
