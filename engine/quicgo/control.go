package quicgo

import (
	"bufio"
	"io"
	"sync/atomic"

	"github.com/pummel-dev/pummel/engine/h3"
	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/quicvarint"
)

// acceptUni reads the server's unidirectional streams until the
// connection ends: its control stream (SETTINGS, then GOAWAYs), QPACK's
// streams (read and dropped: no dynamic table was allowed), and refuses
// the rest. A control stream that breaks HTTP/3 closes the connection
// with its error's code: every stream open on it then ends as lost. Each
// stream's type is read apart, so that one that never says it holds up
// none after it (the control stream's GOAWAY).
func (s *session) acceptUni() {
	ctx := s.qc.Context()
	var control atomic.Bool
	for {
		str, err := s.qc.AcceptUniStream(ctx)
		if err != nil {
			return
		}
		go s.readUni(str, &control)
	}
}

// readUni reads one of the server's unidirectional streams by its type;
// control is set once one was the control stream.
func (s *session) readUni(str *quic.ReceiveStream, control *atomic.Bool) {
	br := bufio.NewReaderSize(str, 512)
	typ, err := quicvarint.Read(br)
	if err != nil {
		str.CancelRead(quic.StreamErrorCode(h3.StreamCreationError))
		return
	}
	switch typ {
	case h3.StreamControl:
		if !control.CompareAndSwap(false, true) {
			s.fail(h3.StreamCreationError, "a second control stream")
			return
		}
		s.readControl(br)
	case h3.StreamQPACKEncoder, h3.StreamQPACKDecoder:
		io.Copy(io.Discard, br) //nolint:errcheck // ends with the stream or the connection
	case h3.StreamPush:
		s.fail(h3.IDError, "a push stream the client never allowed")
	default: // reserved or unknown: refused (RFC 9114 §6.2)
		str.CancelRead(quic.StreamErrorCode(h3.StreamCreationError))
	}
}

// readControl reads the server's control stream; the connection ends with
// the stream's fault, unless it ended first.
func (s *session) readControl(br *bufio.Reader) {
	err := h3.ReadControl(br, func(id uint64) { s.goAway.Store(id + 1) })
	if s.qc.Context().Err() != nil {
		return
	}
	if pe, ok := err.(*h3.ProtocolError); ok {
		s.fail(pe.Code, "the server's control stream: "+pe.Cause)
	}
}

// fail closes the connection for a fault of the server, with code.
func (s *session) fail(code h3.ErrCode, cause string) {
	s.closeOnce.Do(func() {
		s.qc.CloseWithError(quic.ApplicationErrorCode(code), cause) //nolint:errcheck // closing
		s.closed()
	})
}
