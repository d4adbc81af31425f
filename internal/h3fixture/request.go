package h3fixture

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/quic-go/quic-go"
)

// protocolError is the client's violation of HTTP/3 on a request stream:
// a connection error (conn) or a stream error, with its code.
type protocolError struct {
	code uint64
	conn bool
	msg  string
}

func (e *protocolError) Error() string { return "h3fixture: " + e.msg }

// connError returns a connection error.
func connError(code uint64, format string, args ...any) error {
	return &protocolError{code: code, conn: true, msg: fmt.Sprintf(format, args...)}
}

// handle serves request stream number n: it rejects, reads, resets,
// stalls or answers it as the Behaviour says.
func (c *conn) handle(str *quic.Stream, n int64) {
	if every(n, c.b.RejectEvery) {
		c.reject(str)
		return
	}
	br := bufio.NewReader(str)
	path, err := readHeaders(br)
	if err != nil {
		c.failed(str, err)
		return
	}
	if !c.admit(path) {
		return
	}
	if every(n, c.b.ResetEvery) {
		c.reset(str)
		return
	}
	if err := c.readBody(br); err != nil {
		c.failed(str, err)
		return
	}
	if every(n, c.b.StallEvery) {
		c.s.counts.stalled.Add(1)
		c.wait(str, -1)
		return
	}
	if c.wait(str, c.b.Delay) {
		c.answer(str)
	}
}

// admit counts a request for path unless its connection is ending, and
// applies CloseAfter and StatelessResetAfter, which leave the request
// unanswered. It reports whether to go on serving the request.
func (c *conn) admit(path string) bool {
	s := c.s
	s.mu.Lock()
	if c.ending || c.gen == 0 && s.crashing {
		s.mu.Unlock()
		return false
	}
	total := s.counts.addRequest(path)
	c.requests++
	closing := c.requests == c.b.CloseAfter
	c.ending = closing
	crash := c.gen == 0 && total == int64(c.b.StatelessResetAfter) && !s.closed
	if crash {
		s.crashing = true
		s.restarts.Add(1)
	}
	s.mu.Unlock()
	switch {
	case closing:
		_ = c.qc.CloseWithError(CodeInternalError, "h3fixture: CloseAfter")
		return false
	case crash:
		s.restart()
		return false
	}
	return true
}

// readHeaders reads frames up to the request's HEADERS frame (skipping
// unknown types) and returns its :path.
func readHeaders(br *bufio.Reader) (string, error) {
	for {
		typ, length, err := readFrameHeader(br)
		if err == io.EOF {
			return "", &protocolError{code: CodeRequestIncomplete, msg: "request stream ended before HEADERS"}
		}
		if err != nil {
			return "", err
		}
		switch {
		case typ == frameHeaders:
			block, err := readPayload(br, length)
			if err != nil {
				return "", err
			}
			return requestPath(block)
		case known(typ):
			return "", connError(CodeFrameUnexpected, "frame type %#x before HEADERS", typ)
		}
		if err := skip(br, length); err != nil {
			return "", err
		}
	}
}

// requestPath decodes a request header block and returns its :path; a
// block without :method or :path is a malformed request.
func requestPath(block []byte) (string, error) {
	fields, err := decodeFields(block)
	if err != nil {
		return "", connError(CodeQPACKDecompressionFailed, "%v", err)
	}
	var method, path string
	for _, f := range fields {
		switch f.Name {
		case ":method":
			method = f.Value
		case ":path":
			path = f.Value
		}
	}
	if method == "" || path == "" {
		return "", &protocolError{code: CodeMessageError, msg: "request without :method or :path"}
	}
	return path, nil
}

// readBody reads the rest of the request up to its FIN: DATA payloads are
// counted, trailers decoded, unknown frame types skipped.
func (c *conn) readBody(br *bufio.Reader) error {
	for {
		typ, length, err := readFrameHeader(br)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch {
		case typ == frameData:
			n, err := io.CopyN(io.Discard, br, int64(length))
			c.s.counts.bodyBytes.Add(n)
			if err != nil {
				return noEOF(err)
			}
			continue
		case typ == frameHeaders:
			block, err := readPayload(br, length)
			if err != nil {
				return err
			}
			if _, err := decodeFields(block); err != nil {
				return connError(CodeQPACKDecompressionFailed, "%v", err)
			}
			continue
		case known(typ):
			return connError(CodeFrameUnexpected, "frame type %#x in a request body", typ)
		}
		if err := skip(br, length); err != nil {
			return err
		}
	}
}

// failed ends a stream whose request could not be read: a cancellation by
// the client, the client's protocol error, or the connection's end.
func (c *conn) failed(str *quic.Stream, err error) {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = connError(CodeFrameError, "a frame cut short by the stream's end")
	}
	if errors.Is(err, errFrameTooLarge) {
		err = connError(CodeFrameError, "a HEADERS frame over %d bytes", maxHeaderBlock)
	}
	var pe *protocolError
	switch {
	case c.s.counts.cancelledBy(err):
		str.CancelWrite(CodeRequestCancelled)
	case errors.As(err, &pe) && pe.conn:
		c.violation(quic.ApplicationErrorCode(pe.code), pe.msg)
	case errors.As(err, &pe):
		c.s.counts.violations.Add(1)
		str.CancelRead(quic.StreamErrorCode(pe.code))
		str.CancelWrite(quic.StreamErrorCode(pe.code))
	}
}
