package http1

import (
	"bytes"
	"slices"
)

// CountRequests splits b, the bytes a script's request() returned, into
// the HTTP/1.1 requests it holds, read as a server reads them, and returns
// where each ends. A request's body is framed by Transfer-Encoding: chunked
// or else by Content-Length (RFC 9112 §6); lines may end in a bare LF, and
// blank lines between requests are skipped, as servers do. What follows the
// last complete request (an incomplete request, or one whose framing is
// malformed) is one last request: a server answers it once at most, with an
// error, and closes. It makes no allocation beyond growing ends.
func CountRequests(b []byte, ends []int) []int {
	ends = ends[:0]
	for off := 0; off < len(b); {
		if len(ends) > 0 && blank(b[off:]) {
			ends[len(ends)-1] = len(b) // trailing blank lines: skipped by the server
			break
		}
		n := requestLength(b[off:])
		if n == 0 {
			n = len(b) - off
		}
		off += n
		ends = append(ends, off)
	}
	return ends
}

// requestLength returns the length of the request at the start of b, 0
// unless b holds all of it, well framed.
func requestLength(b []byte) int {
	head, f := requestHead(b)
	switch {
	case head == 0 || f.bad:
		return 0
	case f.chunked: // read as a response's chunked body is, trailers included
		p := Parser{state: inChunkSize}
		if n, done, err := p.readBody(b[head:]); done && err == nil {
			return head + n
		}
		return 0
	case f.length > len(b)-head:
		return 0
	}
	return head + f.length
}

// framing is how a request's head says its body ends.
type framing struct {
	length  int  // Content-Length; 0 without one
	chunked bool // Transfer-Encoding ends in chunked: it overrides length
	bad     bool // the framing cannot be trusted: the server rejects the request
}

// requestHead reads the request line and header fields at the start of b,
// after any blank lines, and returns the length up to and including the
// blank line that ends them (0 if b holds no such line) and the framing
// they give.
func requestHead(b []byte) (int, framing) {
	var f framing
	pos := len(b) - len(bytes.TrimLeft(b, "\r\n"))
	line, next, ok := nextLine(b, pos)
	if !ok {
		return 0, f
	}
	http10 := bytes.HasSuffix(line, []byte(" HTTP/1.0"))
	var hasLength, hasEncoding, lastFraming bool
	for {
		if line, next, ok = nextLine(b, next); !ok {
			return 0, f
		}
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' { // obs-fold: continues the last field
			f.bad = f.bad || lastFraming
			continue
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.Trim(value, " \t")
		lastFraming = true
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			n, ok := parseLength(value)
			f.bad = f.bad || !ok || hasLength && n != f.length
			f.length, hasLength = n, true
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			f.chunked, hasEncoding = lastCodingChunked(value), true
		default:
			lastFraming = false
		}
	}
	// A coding other than chunked last, or any in HTTP/1.0, leaves the
	// body's end unknown (RFC 9112 §6.1, §6.3).
	f.bad = f.bad || hasEncoding && (!f.chunked || http10)
	return next, f
}

// maxLength bounds a Content-Length: larger ones are
// malformed here, as no request() returns that much.
const maxLength = 1 << 40

// parseLength parses a Content-Length value: decimal digits only.
func parseLength(v []byte) (int, bool) {
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' || n > maxLength {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, len(v) > 0
}

// lastCodingChunked reports whether a Transfer-Encoding list ends in
// chunked.
func lastCodingChunked(v []byte) bool {
	if i := bytes.LastIndexByte(v, ','); i >= 0 {
		v = v[i+1:]
	}
	return bytes.EqualFold(bytes.Trim(v, " \t"), []byte("chunked"))
}

// recoded appends head, a response header with CRLF line ends, to dst
// with its Transfer-Encoding fields replaced by the one that frames the
// body: "Transfer-Encoding: chunked" when chunked is the final coding of
// the list they make together (RFC 9110 §5.3), none otherwise (the body
// then ends when the server closes, RFC 9112 §6.3). Content-Length fields,
// which Transfer-Encoding overrides, are left out. coded reports whether
// head had Transfer-Encoding fields: if not, out is no use.
func recoded(dst, head []byte) (out []byte, coded bool) {
	_, fields, _ := nextLine(head, 0)
	out = append(dst, head[:fields]...)
	chunked := false
	for pos := fields; pos < len(head); {
		line, next, ok := nextLine(head, pos)
		if !ok {
			next = len(head)
		}
		name, value, field := bytes.Cut(line, []byte(":"))
		name = bytes.TrimRight(name, " \t")
		switch {
		case field && bytes.EqualFold(name, []byte("Transfer-Encoding")):
			if value = bytes.TrimRight(value, " \t,"); len(bytes.TrimLeft(value, " \t")) > 0 {
				chunked = lastCodingChunked(value) // an empty field adds no coding
			}
			coded = true
		case field && bytes.EqualFold(name, []byte("Content-Length")):
			// overridden by Transfer-Encoding
		default:
			out = append(out, head[pos:next]...)
		}
		pos = next
	}
	if chunked {
		out = slices.Insert(out, len(dst)+fields, []byte("Transfer-Encoding: chunked\r\n")...)
	}
	return out, coded
}

// nextLine returns the line that starts at pos in b, without its LF or
// CRLF, and where the next one starts; ok is false if no LF ends it.
func nextLine(b []byte, pos int) (line []byte, next int, ok bool) {
	i := bytes.IndexByte(b[pos:], '\n')
	if i < 0 {
		return nil, 0, false
	}
	line = bytes.TrimSuffix(b[pos:pos+i], []byte("\r"))
	return line, pos + i + 1, true
}

// IsHead reports whether req, one request, is a HEAD request: the
// response to it has no body, whatever its header says (RFC 9110 §9.3.2).
func IsHead(req []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(req, "\r\n"), []byte("HEAD "))
}

// blank reports whether b holds only CR and LF bytes.
func blank(b []byte) bool { return len(bytes.TrimLeft(b, "\r\n")) == 0 }
