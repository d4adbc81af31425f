package engine

import (
	"bytes"
	"errors"
	"io"
)

// maxKeptBody bounds how much of a body is kept for --expect-body.
const maxKeptBody = 4 << 20

// readResponse reads one whole response from the connection: the header
// with fasthttp, the body by its framing (Content-Length, chunked, or until
// the server closes). Bodies are discarded as they arrive unless a check
// needs them, so a 1 MiB body costs no memory. It returns the status and
// whether the connection must be closed afterwards.
func (c *conn) readResponse() (status int, closeConn bool, f failure) {
	for {
		// Peek first: fasthttp reports any error before the first byte as
		// io.EOF, and pummel tells a reset from an EOF from a timeout.
		if _, err := c.br.Peek(1); err != nil {
			return 0, false, readFailure(err, false)
		}
		if err := c.hdr.Read(c.br); err != nil {
			return 0, false, readFailure(err, true)
		}
		status = c.hdr.StatusCode()
		if status >= 100 && status < 200 && status != 101 {
			continue // an interim response: the real one follows
		}
		untilClose, err := c.readBody(status)
		if err != nil {
			return status, true, readFailure(err, true)
		}
		return status, untilClose || c.hdr.ConnectionClose(), failure{}
	}
}

// readBody consumes the body; untilClose is true when it was delimited by
// the server closing the connection.
func (c *conn) readBody(status int) (untilClose bool, err error) {
	c.body = c.body[:0]
	if c.run.head || status < 200 || status == 204 || status == 304 {
		return false, nil
	}
	switch n := c.hdr.ContentLength(); {
	case n >= 0:
		return false, c.consume(n)
	case n == -1:
		return false, c.readChunked()
	default:
		return true, c.readUntilEOF()
	}
}

// consume reads n body bytes, keeping them only when checks need them.
func (c *conn) consume(n int) error {
	if !c.run.keepBody {
		if _, err := c.br.Discard(n); err != nil {
			return unexpectedEOF(err)
		}
		return nil
	}
	for n > 0 {
		b, err := c.br.Peek(min(n, c.br.Size()))
		c.keep(b)
		c.br.Discard(len(b)) //nolint:errcheck // b is buffered
		n -= len(b)
		if err != nil && n > 0 {
			return unexpectedEOF(err)
		}
	}
	return nil
}

func (c *conn) keep(b []byte) {
	if c.run.keepBody && len(c.body) < maxKeptBody {
		c.body = append(c.body, b[:min(len(b), maxKeptBody-len(c.body))]...)
	}
}

// readChunked consumes a chunked body and its trailer.
func (c *conn) readChunked() error {
	for {
		line, err := c.br.ReadSlice('\n')
		if err != nil {
			return unexpectedEOF(err)
		}
		size, ok := parseChunkSize(line)
		if !ok {
			return errMalformed
		}
		if size == 0 {
			return c.skipTrailer()
		}
		if err := c.consume(size); err != nil {
			return err
		}
		if line, err = c.br.ReadSlice('\n'); err != nil {
			return unexpectedEOF(err)
		}
		if len(bytes.TrimRight(line, "\r\n")) != 0 {
			return errMalformed
		}
	}
}

// skipTrailer consumes trailer fields up to the empty line that ends them.
func (c *conn) skipTrailer() error {
	for {
		line, err := c.br.ReadSlice('\n')
		if err != nil {
			return unexpectedEOF(err)
		}
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			return nil
		}
	}
}

// parseChunkSize parses "1a2b;ext=1\r\n".
func parseChunkSize(line []byte) (int, bool) {
	line = bytes.TrimRight(line, "\r\n")
	if i := bytes.IndexByte(line, ';'); i >= 0 {
		line = line[:i]
	}
	line = bytes.TrimSpace(line)
	if len(line) == 0 || len(line) > 12 { // 12 hex digits: 256 TiB
		return 0, false
	}
	n := 0
	for _, ch := range line {
		switch {
		case ch >= '0' && ch <= '9':
			n = n<<4 | int(ch-'0')
		case ch >= 'a' && ch <= 'f':
			n = n<<4 | int(ch-'a'+10)
		case ch >= 'A' && ch <= 'F':
			n = n<<4 | int(ch-'A'+10)
		default:
			return 0, false
		}
	}
	return n, true
}

// readUntilEOF consumes a body that ends when the server closes.
func (c *conn) readUntilEOF() error {
	for {
		if c.br.Buffered() == 0 {
			if _, err := c.br.Peek(1); errors.Is(err, io.EOF) {
				return nil
			} else if err != nil {
				return err
			}
		}
		b, _ := c.br.Peek(c.br.Buffered())
		c.keep(b)
		c.br.Discard(len(b)) //nolint:errcheck // b is buffered
	}
}

func unexpectedEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
