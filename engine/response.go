package engine

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"
	"sync/atomic"

	"github.com/valyala/fasthttp"
)

// maxKeptBody bounds how much of a body is kept for --expect-body.
const maxKeptBody = 4 << 20

// maxReadBufferSize bounds how far a connection's read buffer grows to hold
// a response header; a larger header is a read error.
const maxReadBufferSize = 64 << 10

// readResponse reads one whole response from the connection: the header
// with fasthttp, the body by its framing (Content-Length, chunked, or until
// the server closes). Bodies are discarded as they arrive unless a check
// needs them, so a 1 MiB body costs no memory. It returns the status and
// whether the connection must be closed afterwards.
func (c *conn) readResponse() (status int, closeConn bool, f failure) {
	// Wait for the response's first byte before taking a parser, so that
	// a connection waiting for its server holds none.
	if f := c.awaitFirstByte(); f.failed() {
		return 0, false, f
	}
	if c.memo.match(c.br) { // never with a script: see readResponseWith
		return c.readRest(c.memo.status, c.memo.length, c.memo.closeConn)
	}
	h := headers.Get().(*fasthttp.ResponseHeader)
	status, closeConn, f = c.readResponseWith(h)
	headers.Put(h)
	return status, closeConn, f
}

// awaitFirstByte waits until a response's first byte is buffered. It peeks
// rather than letting fasthttp read: fasthttp reports any error before the
// first byte as io.EOF, and pummel tells a reset from an EOF from a timeout.
func (c *conn) awaitFirstByte() failure {
	if _, err := c.br.Peek(1); err != nil {
		return readFailure(err, false)
	}
	return failure{}
}

// headers holds response header parsers between responses. A connection
// needs one only while it parses a response, not while it waits for one:
// pooling them keeps 10,000 connections from holding 10,000 parsers (about
// 600 bytes each, with their buffers), and the few in use stay in the
// CPU's cache.
var headers = sync.Pool{New: func() any {
	parsersMade.Add(1)
	h := new(fasthttp.ResponseHeader)
	h.DisableNormalizing()
	return h
}}

// parsersMade counts the header parsers made for the pool, for tests.
var parsersMade atomic.Int64

func (c *conn) readResponseWith(h *fasthttp.ResponseHeader) (status int, closeConn bool, f failure) {
	for {
		c.memo.note(c.br)
		if err := h.Read(c.br); err != nil {
			if c.growReader(err) {
				continue // the header did not fit: read it again, whole
			}
			return 0, false, readFailure(err, true)
		}
		status = h.StatusCode()
		if status >= 100 && status < 200 && status != 101 { // an interim response: the real one follows
			if f := c.awaitFirstByte(); f.failed() {
				return 0, false, f
			}
			continue
		}
		if c.worker.script != nil { // response() wants every header: nothing is remembered
			c.keepHeaders(h)
		} else {
			c.memo.remember(c.br, status, h.ContentLength(), h.ConnectionClose())
		}
		return c.readRest(status, h.ContentLength(), h.ConnectionClose())
	}
}

// readRest reads the body of a response whose header is read; closeConn
// is what the header said of the connection.
func (c *conn) readRest(status, length int, closeConn bool) (int, bool, failure) {
	untilClose, err := c.readBody(status, length)
	if err != nil {
		return status, true, readFailure(err, true)
	}
	return status, untilClose || closeConn, failure{}
}

// readBody consumes the body; untilClose is true when it was delimited by
// the server closing the connection. length is the header's Content-Length
// as fasthttp gives it: -1 for chunked, -2 for until the server closes.
func (c *conn) readBody(status, length int) (untilClose bool, err error) {
	c.body = c.body[:0]
	if c.run.head || status < 200 || status == 204 || status == 304 {
		return false, nil
	}
	switch {
	case length >= 0:
		return false, c.consume(length)
	case length == -1:
		return false, c.readChunked()
	default:
		return true, c.readUntilEOF()
	}
}

// consume reads n body bytes, keeping them only when checks need them.
// What is buffered is taken from the reader; a remainder larger than the
// reader's buffer is read straight from the wire through a pooled scratch
// buffer, so a large body costs few system calls and no memory per connection.
func (c *conn) consume(n int) error {
	k := min(n, c.br.Buffered())
	c.keepBuffered(k)
	n -= k
	if n == 0 {
		return nil
	}
	if n < c.br.Size() {
		b, err := c.br.Peek(n)
		c.keepBuffered(len(b))
		if err != nil {
			return unexpectedEOF(err)
		}
		return nil
	}
	return c.stream(n)
}

// stream reads n bytes (n < 0: until EOF) from the wire, bypassing the
// empty read buffer.
func (c *conn) stream(n int) error {
	buf := scratchPool.Get().(*[]byte)
	defer scratchPool.Put(buf)
	for n != 0 {
		want := len(*buf)
		if n > 0 {
			want = min(want, n)
		}
		m, err := c.wire.Read((*buf)[:want])
		c.keep((*buf)[:m])
		if n > 0 {
			n -= m
		}
		switch {
		case err == io.EOF && n < 0:
			return nil
		case err != nil && n != 0:
			return unexpectedEOF(err)
		}
	}
	return nil
}

// scratchPool holds the buffers stream reads large bodies into.
var scratchPool = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// keepBuffered consumes n buffered bytes, keeping them if checks need them.
func (c *conn) keepBuffered(n int) {
	if c.run.keepBody {
		b, _ := c.br.Peek(n)
		c.keep(b)
	}
	c.br.Discard(n) //nolint:errcheck // n bytes are buffered
}

func (c *conn) keep(b []byte) {
	if c.run.keepBody && len(c.body) < maxKeptBody {
		c.body = append(c.body, b[:min(len(b), maxKeptBody-len(c.body))]...)
	}
}

// growReader replaces a read buffer too small for a response header with
// one four times larger, up to maxReadBufferSize, keeping what was already
// buffered. It reports whether it did.
func (c *conn) growReader(err error) bool {
	var small *fasthttp.ErrSmallBuffer
	size := c.br.Size()
	if !errors.As(err, &small) || size >= maxReadBufferSize {
		return false
	}
	buffered, _ := c.br.Peek(c.br.Buffered())
	head := bytes.NewReader(bytes.Clone(buffered))
	c.br = bufio.NewReaderSize(io.MultiReader(head, c.wire), min(4*size, maxReadBufferSize))
	return true
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
	c.keepBuffered(c.br.Buffered())
	return c.stream(-1)
}

func unexpectedEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
