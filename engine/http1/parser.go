package http1

import (
	"bufio"
	"bytes"
	"errors"
	"sync"

	"github.com/valyala/fasthttp"
)

// MaxHeaderSize bounds a response header; a larger one is a read error.
const MaxHeaderSize = 64 << 10

// MaxKeptBody bounds how much of a body is kept for checks and scripts.
const MaxKeptBody = 4 << 20

// Errors of a response the parser cannot read; each is a read error.
var (
	ErrMalformed   = errors.New("malformed response")
	ErrHeaderLarge = errors.New("response header over 64 KiB")
)

// bodyState is where the parser is in a response's body.
type bodyState uint8

const (
	inHead        bodyState = iota // waiting for (the rest of) a header
	inLength                       // remaining bytes of a Content-Length body
	inUntilClose                   // a body that ends when the server closes
	inChunkSize                    // hex digits of a chunk size
	inChunkExt                     // a chunk extension, up to its line end
	inChunkData                    // remaining bytes of a chunk
	inChunkEnd                     // the line end after a chunk's data
	inTrailer                      // the start of a trailer line, or the final line end
	inTrailerLine                  // the rest of a trailer line
)

// Parser reads HTTP/1.1 responses from a connection's byte stream, a read
// at a time, whatever the reads' sizes: a response may arrive in many
// reads, and one read may hold many (pipelined) responses. Both transports
// feed it, so they frame and classify responses alike.
//
// Only a response header must be whole in one buffer, to be parsed by
// fasthttp (or recognised as the last header); Feed says when it is not,
// and the caller keeps the partial header and feeds it again with what
// follows. Bodies are consumed as they arrive and kept only when a check
// or a script needs them.
type Parser struct {
	state bodyState
	// remaining is what is left of a Content-Length body or a chunk.
	remaining int64
	// chunkDigits counts a chunk size's hex digits, to bound it.
	chunkDigits int
	// Status and CloseConn describe the response being read.
	Status    int
	CloseConn bool
	// interim is set while the header just read was an interim (1xx)
	// response's: the final response follows.
	interim bool
	// Head is true when the request the next response answers is HEAD:
	// that response has no body. The connection sets it for each response
	// when a script makes the requests, whose methods may differ.
	Head bool
	// KeepBody keeps up to MaxKeptBody of each body in Body.
	KeepBody bool
	Body     []byte
	// Headers, when set, receives a copy of each parsed header's fields
	// (a script's response() wants them); the last header is then not used.
	Headers func(*fasthttp.ResponseHeader)
	// Last is the last header parsed, shared by the connections of an
	// event loop (they talk to one server, one at a time), a connection's
	// own in the goroutine transport; nil: none.
	Last *LastHeader
}

// Event is what Feed found.
type Event uint8

const (
	NeedMore  Event = iota // everything given was consumed, or a header is partial
	Responded              // a response ended
)

// Feed consumes bytes of b and returns how many, and whether a response
// ended there (its Status and CloseConn are in p). When it returns
// NeedMore with n < len(b), b[n:] is the start of a header: feed it again
// with more bytes after it. A body delimited by the connection's close
// ends only at Closed.
func (p *Parser) Feed(b []byte, hp *HeaderParsers) (n int, ev Event, err error) {
	for n < len(b) {
		if p.state == inHead {
			m, ok, err := p.readHead(b[n:], hp)
			n += m
			switch {
			case err != nil || !ok:
				return n, NeedMore, err
			case p.interim:
				continue // the real response follows
			case p.state == inHead: // no body
				return n, Responded, nil
			}
			continue
		}
		m, done, err := p.readBody(b[n:])
		n += m
		if err != nil {
			return n, NeedMore, err
		}
		if done {
			return n, Responded, nil
		}
	}
	return n, NeedMore, nil
}

// Closed tells the parser that the server closed the connection; it
// reports whether that ended a close-delimited body.
func (p *Parser) Closed() bool {
	if p.state != inUntilClose {
		return false
	}
	p.state = inHead
	return true
}

// Started reports whether a response is partly read: a failure then
// happened mid-response.
func (p *Parser) Started() bool { return p.state != inHead }

// Bulk reports whether the response being read has a large body ahead:
// its bytes are better read into a large buffer.
func (p *Parser) Bulk() bool {
	switch p.state {
	case inLength, inChunkData:
		return p.remaining >= bulkBody
	case inUntilClose:
		return true
	}
	return false
}

// BodyLeft returns how many bytes of the response being read are still
// to come, when its framing says: the rest of a Content-Length body. ok is
// false elsewhere (a header, a chunked body, one that ends at the close).
func (p *Parser) BodyLeft() (n int64, ok bool) {
	return p.remaining, p.state == inLength
}

// bulkBody is the rest of a body above which bulk is true.
const bulkBody = 4 << 10

// Reset forgets a partly read response, for a new connection.
func (p *Parser) Reset() { p.state, p.remaining = inHead, 0 }

// readHead parses a response header at the start of b, skipping the empty
// lines a server may send first. ok is false when b holds no whole header
// yet: n then counts only the skipped empty lines.
func (p *Parser) readHead(b []byte, hps *HeaderParsers) (n int, ok bool, err error) {
	for n < len(b) && (b[n] == '\r' || b[n] == '\n') {
		n++ // RFC 9112 §2.2: empty lines before a response are ignored
	}
	b = b[n:]
	p.interim = false
	if m, ok := p.recognise(b); ok {
		p.begin(p.Last.status, p.Last.length, p.Last.closeConn)
		return n + m, true, nil
	}
	end := headerEnd(b)
	if end < 0 {
		if len(b) >= MaxHeaderSize {
			return n, false, ErrHeaderLarge
		}
		return n, false, nil
	}
	hp := hps.get()
	defer hps.put(hp)
	h, err := hp.parse(b[:end])
	if err != nil {
		return n, false, err
	}
	status, length, closeConn := h.StatusCode(), h.ContentLength(), h.ConnectionClose()
	if p.interim = status >= 100 && status < 200 && status != 101; p.interim {
		return n + end, true, nil
	}
	if p.Headers != nil {
		p.Headers(h)
	} else if p.Last != nil {
		p.Last.remember(b[:end], status, length, closeConn)
	}
	p.begin(status, length, closeConn)
	return n + end, true, nil
}

// recognise reports whether b starts with the remembered header, and how
// long it is; never with a script, which wants every header parsed.
func (p *Parser) recognise(b []byte) (int, bool) {
	if p.Last == nil || p.Headers != nil {
		return 0, false
	}
	return p.Last.match(b)
}

// begin starts reading the body of a response whose header was read;
// length is fasthttp's: -1 chunked, -2 until the server closes.
func (p *Parser) begin(status, length int, closeConn bool) {
	p.Status, p.CloseConn = status, closeConn
	p.Body = p.Body[:0]
	switch {
	case p.Head || status < 200 || status == 204 || status == 304:
		p.state = inHead
	case length >= 0:
		p.state, p.remaining = inLength, int64(length)
		if length == 0 {
			p.state = inHead
		}
	case length == -1:
		p.state, p.remaining, p.chunkDigits = inChunkSize, 0, 0
	default:
		p.state, p.CloseConn = inUntilClose, true
	}
}

// headerEnd returns the length of the header at the start of b, through
// the empty line that ends it (CRLF or a bare LF, RFC 9112 §2.2), or -1.
func headerEnd(b []byte) int {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return -1
		}
		i += j + 1
		switch {
		case i < len(b) && b[i] == '\n':
			return i + 1
		case i+1 < len(b) && b[i] == '\r' && b[i+1] == '\n':
			return i + 2
		case i >= len(b) || i+1 >= len(b) && b[i] == '\r':
			return -1
		}
	}
}

// readBody consumes body bytes from b; done is true when the body ended.
func (p *Parser) readBody(b []byte) (n int, done bool, err error) {
	for n < len(b) {
		switch p.state {
		case inLength, inChunkData:
			k := int(min(p.remaining, int64(len(b)-n)))
			p.keep(b[n : n+k])
			n += k
			if p.remaining -= int64(k); p.remaining > 0 {
				return n, false, nil
			}
			if p.state == inLength {
				p.state = inHead
				return n, true, nil
			}
			p.state = inChunkEnd
		case inUntilClose:
			p.keep(b[n:])
			return len(b), false, nil
		default:
			ended, err := p.chunkByte(b[n])
			n++
			if err != nil || ended {
				return n, ended, err
			}
		}
	}
	return n, false, nil
}

// chunkByte consumes one byte of a chunked body's framing: sizes,
// extensions, line ends and trailer fields, of any length.
func (p *Parser) chunkByte(ch byte) (ended bool, err error) {
	switch p.state {
	case inChunkSize:
		if d, ok := hexDigit(ch); ok {
			if p.chunkDigits++; p.chunkDigits > 15 {
				return false, ErrMalformed
			}
			p.remaining = p.remaining<<4 | int64(d)
			return false, nil
		}
		if p.chunkDigits == 0 {
			return false, ErrMalformed
		}
		switch ch {
		case ';', ' ', '\t', '\r':
			p.state = inChunkExt
		case '\n':
			p.endChunkSize()
		default:
			return false, ErrMalformed
		}
	case inChunkExt:
		if ch == '\n' {
			p.endChunkSize()
		}
	case inChunkEnd:
		switch ch {
		case '\r':
		case '\n':
			p.state, p.remaining, p.chunkDigits = inChunkSize, 0, 0
		default:
			return false, ErrMalformed
		}
	case inTrailer:
		switch ch {
		case '\r':
		case '\n':
			p.state = inHead
			return true, nil
		default:
			p.state = inTrailerLine
		}
	case inTrailerLine:
		if ch == '\n' {
			p.state = inTrailer
		}
	}
	return false, nil
}

// endChunkSize moves past a chunk-size line: to the chunk's data, or to
// the trailer after the last chunk.
func (p *Parser) endChunkSize() {
	p.state = inChunkData
	if p.remaining == 0 {
		p.state = inTrailer
	}
}

func hexDigit(ch byte) (byte, bool) {
	switch {
	case ch >= '0' && ch <= '9':
		return ch - '0', true
	case ch >= 'a' && ch <= 'f':
		return ch - 'a' + 10, true
	case ch >= 'A' && ch <= 'F':
		return ch - 'A' + 10, true
	}
	return 0, false
}

// keep adds body bytes to p.Body when checks or a script need them.
func (p *Parser) keep(b []byte) {
	if p.KeepBody && len(p.Body) < MaxKeptBody {
		p.Body = append(p.Body, b[:min(len(b), MaxKeptBody-len(p.Body))]...)
	}
}

// HeaderParser parses whole response headers with fasthttp. fasthttp reads
// headers from a bufio.Reader only, so the header's bytes are handed to it
// through one, which must hold the whole header.
type HeaderParser struct {
	h     fasthttp.ResponseHeader
	src   bytes.Reader
	br    *bufio.Reader
	crlf  []byte // a bare-LF header rewritten with CRLF line ends
	plain []byte // a header with its Transfer-Encoding fields recoded
}

// headerParserSize is a header parser's first buffer; a larger header
// gets a larger one.
const headerParserSize = 4 << 10

func newHeaderParser() *HeaderParser {
	hp := &HeaderParser{br: bufio.NewReaderSize(nil, headerParserSize)}
	hp.h.DisableNormalizing()
	return hp
}

// parse parses one whole header, its empty line included. fasthttp wants
// CRLF line ends; a header with bare LF ones (which RFC 9112 lets a client
// accept) is rewritten first.
//
// fasthttp takes one Transfer-Encoding field, "chunked", and refuses any
// other. Codings such as "gzip, chunked" are valid HTTP/1.1, and only the
// final one frames the body (RFC 9112 §6.3): chunked, or else the body
// ends when the server closes. Such a header is parsed again with its
// Transfer-Encoding fields recoded to the framing they give. The body's
// bytes are counted as they come, never decoded.
func (hp *HeaderParser) parse(head []byte) (*fasthttp.ResponseHeader, error) {
	if bareLF(head) {
		hp.crlf = withCRLF(hp.crlf[:0], head)
		head = hp.crlf
	}
	if !hp.read(head) {
		var coded bool
		if hp.plain, coded = recoded(hp.plain[:0], head); !coded || !hp.read(hp.plain) {
			return nil, ErrMalformed
		}
	}
	return &hp.h, nil
}

// read has fasthttp parse head, a whole header with CRLF line ends; it
// reports whether fasthttp took it.
func (hp *HeaderParser) read(head []byte) bool {
	hp.src.Reset(head)
	if hp.br.Size() < len(head) {
		hp.br = bufio.NewReaderSize(&hp.src, len(head))
	}
	hp.br.Reset(&hp.src)
	return hp.h.Read(hp.br) == nil && hp.br.Buffered() == 0
}

// HeaderParsers lends header parsers: an event loop owns one, used by all
// its connections; connection goroutines share a pool, so that a
// connection holds a parser only while it parses, not while it waits.
type HeaderParsers struct{ own *HeaderParser }

var parserPool = sync.Pool{New: func() any { return newHeaderParser() }}

// OwnParsers lends an event loop's own header parser, and the pool's
// when a second is needed at once.
func OwnParsers() HeaderParsers { return HeaderParsers{own: newHeaderParser()} }

func (hps *HeaderParsers) get() *HeaderParser {
	if hps.own != nil {
		return hps.own
	}
	return parserPool.Get().(*HeaderParser)
}

func (hps *HeaderParsers) put(hp *HeaderParser) {
	if hps.own == nil {
		parserPool.Put(hp)
	}
}

// bareLF reports whether a line of head ends in LF without CR.
func bareLF(head []byte) bool {
	for i, ch := range head {
		if ch == '\n' && (i == 0 || head[i-1] != '\r') {
			return true
		}
	}
	return false
}

// withCRLF appends head to dst with every line ending in CRLF.
func withCRLF(dst, head []byte) []byte {
	for i, ch := range head {
		if ch == '\n' && (i == 0 || head[i-1] != '\r') {
			dst = append(dst, '\r')
		}
		dst = append(dst, ch)
	}
	return dst
}
