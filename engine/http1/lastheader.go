package http1

import "bytes"

// maxLastHeader bounds the header a connection remembers.
const maxLastHeader = 1 << 10

// LastHeader is a connection's last response header, byte for byte, with
// what fasthttp parsed from it. A server sends the same header again and
// again, but for its Date, so most responses are recognised by one
// comparison instead of a parse, which was the largest item of pummel's
// own CPU time in a profile of a pipelined run.
//
// It is sound because a parse depends on the bytes alone: the parser
// hands fasthttp exactly one whole header, from its status line through
// the empty line that ends it, and remembers it only when fasthttp
// consumed all of it. A buffer that starts with those bytes starts with
// that same header, but for the Date value below. fasthttp parses a copy
// (see HeaderParser), so the remembered bytes are the ones that arrived.
//
// The value of the Date field may differ: it changes every second, and at
// 10,000 connections a connection sees only a few responses a second, so
// comparing it had many of them parsed again. A header that differs
// from the remembered one only there, in as many printable characters, is
// recognised too. Neither value holds a line break, so its lines, folds
// and blank line are the same; fasthttp (v1.78) accepts every printable
// byte in a header value and gives Date no meaning, so the status, framing
// and close it parses are the same. TestFasthttpAcceptsAnyPrintableDate
// holds fasthttp to that.
type LastHeader struct {
	raw []byte // the remembered header
	// date and dateEnd delimit the value of raw's Date field, if it has
	// one of printable characters (else both are 0).
	date, dateEnd int
	status        int
	length        int // as fasthttp's ContentLength: -1 chunked, -2 until close
	closeConn     bool
	hits          int // responses recognised, for tests
}

// match reports whether b starts with the remembered header and, if so,
// how long it is.
func (m *LastHeader) match(b []byte) (int, bool) {
	if len(m.raw) == 0 || len(b) < len(m.raw) || !m.same(b[:len(m.raw)]) {
		return 0, false
	}
	m.hits++
	return len(m.raw), true
}

// same reports whether b, as long as the remembered header, is that
// header but for the value of its Date field, which may be any printable
// characters.
func (m *LastHeader) same(b []byte) bool {
	return bytes.Equal(b[:m.date], m.raw[:m.date]) &&
		bytes.Equal(b[m.dateEnd:], m.raw[m.dateEnd:]) &&
		printable(b[m.date:m.dateEnd])
}

// printable reports whether b is visible ASCII characters and spaces only:
// no line break, no control character.
func printable(b []byte) bool {
	for _, ch := range b {
		if ch < ' ' || ch > '~' {
			return false
		}
	}
	return true
}

// dateValue returns where the value of header's first Date field starts
// and ends (after the colon, up to the line's end), or 0, 0 if it has none
// or its value is not all printable.
func dateValue(header []byte) (start, end int) {
	for i := bytes.IndexByte(header, '\n') + 1; i < len(header); {
		n := bytes.IndexByte(header[i:], '\n')
		if n < 0 {
			return 0, 0
		}
		line := bytes.TrimSuffix(header[i:i+n], []byte("\r"))
		if len(line) >= 5 && bytes.EqualFold(line[:5], []byte("date:")) {
			if !printable(line[5:]) {
				return 0, 0
			}
			return i + 5, i + len(line)
		}
		i += n + 1
	}
	return 0, 0
}

// remember keeps header, a whole header that fasthttp parsed, with what it
// parsed from it, copied: the caller's buffer is reused.
func (m *LastHeader) remember(header []byte, status, length int, closeConn bool) {
	if len(header) > maxLastHeader {
		return
	}
	m.raw = append(m.raw[:0], header...)
	m.date, m.dateEnd = dateValue(m.raw)
	m.status, m.length, m.closeConn = status, length, closeConn
}
