package h3fixture

import (
	"bufio"
	"context"
	"io"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/quicvarint"
)

// acceptUni reads each unidirectional stream of the client on its own
// goroutine until the connection ends.
func (c *conn) acceptUni() {
	for {
		str, err := c.qc.AcceptUniStream(context.Background())
		if err != nil {
			return
		}
		c.s.wg.Go(func() { c.readUni(str) })
	}
}

// readUni reads a unidirectional stream's type and then the stream:
// the control stream is checked, QPACK streams are drained, a push
// stream is a violation and an unknown type is refused.
func (c *conn) readUni(str *quic.ReceiveStream) {
	br := bufio.NewReader(str)
	typ, err := quicvarint.Read(br)
	if err != nil {
		return
	}
	switch typ {
	case streamControl:
		c.readControl(br)
	case streamQPACKEncoder, streamQPACKDecoder:
		_, _ = io.Copy(io.Discard, br)
	case streamPush:
		c.violation(CodeStreamCreationError, "a client opened a push stream")
	default:
		str.CancelRead(CodeStreamCreationError)
	}
}

// readControl checks that the client's control stream is the only one and
// starts with SETTINGS, then discards it until the connection ends; the
// client closing it is a violation.
func (c *conn) readControl(br *bufio.Reader) {
	if c.gotControl.Swap(true) {
		c.violation(CodeStreamCreationError, "a second control stream")
		return
	}
	typ, length, err := readFrameHeader(br)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		c.violation(CodeClosedCriticalStream, "the control stream closed")
		return
	case err != nil:
		return // the connection ended
	case typ != frameSettings:
		c.violation(CodeMissingSettings, "the control stream does not start with SETTINGS")
		return
	}
	err = skip(br, length)
	if err == nil {
		_, err = io.Copy(io.Discard, br) // nil at EOF
	}
	if err == nil || err == io.ErrUnexpectedEOF {
		c.violation(CodeClosedCriticalStream, "the control stream closed")
	}
}
