package engine

import (
	"bufio"
	"bytes"
)

// maxMemoHeader bounds the header a connection remembers.
const maxMemoHeader = 1 << 10

// blankLine ends a response header.
var blankLine = []byte("\r\n\r\n")

// headerMemo is a connection's last response header, byte for byte, with
// what fasthttp parsed from it. A server sends the same header again and
// again, but for its Date, so most responses are recognised by one
// comparison instead of a parse, which was the largest item of pummel's
// own CPU time in a profile of a pipelined run.
//
// It is sound because a parse depends on the bytes alone: a header is
// remembered only when it was buffered whole, starting with its status
// line, and fasthttp consumed exactly the bytes through its first blank
// line, so the remembered bytes are a whole header and fasthttp read
// nothing more to parse it. A buffer that starts with them starts with
// that same header, but for the Date value below. The bytes are copied
// before the parse, which may rewrite them in place (folded header lines
// are joined).
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
type headerMemo struct {
	raw []byte // the remembered header
	// date and dateEnd delimit the value of raw's Date field, if it has
	// one of printable characters (else both are 0).
	date, dateEnd int
	status        int
	length        int // as fasthttp's ContentLength: -1 chunked, -2 until close
	closeConn     bool
	// next and buffered are note's record of the header about to be
	// parsed: a copy through its blank line (empty if none), and how much
	// was buffered.
	next     []byte
	buffered int
	hits     int // responses recognised, for tests
}

// match reports whether br starts with the remembered header and, if so,
// consumes it.
func (m *headerMemo) match(br *bufio.Reader) bool {
	if len(m.raw) == 0 || br.Buffered() < len(m.raw) {
		return false
	}
	b, _ := br.Peek(len(m.raw)) // buffered already: no read
	if !m.same(b) {
		return false
	}
	br.Discard(len(m.raw)) //nolint:errcheck // buffered
	m.hits++
	return true
}

// same reports whether b, as long as the remembered header, is that
// header but for the value of its Date field, which may be any printable
// characters.
func (m *headerMemo) same(b []byte) bool {
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

// note copies the header buffered whole in br, before fasthttp parses it:
// nothing if it is not, if it is longer than maxMemoHeader, or if blank
// lines come first (fasthttp skips them, and its header then does not end
// at the first blank line).
func (m *headerMemo) note(br *bufio.Reader) {
	m.next, m.buffered = m.next[:0], br.Buffered()
	b, _ := br.Peek(min(m.buffered, maxMemoHeader)) // buffered already: no read
	if len(b) == 0 || b[0] == '\r' || b[0] == '\n' {
		return
	}
	if i := bytes.Index(b, blankLine); i >= 0 {
		m.next = append(m.next, b[:i+len(blankLine)]...)
	}
}

// remember keeps the header note copied, with what fasthttp parsed from
// it, if fasthttp consumed exactly that header from br.
func (m *headerMemo) remember(br *bufio.Reader, status, length int, closeConn bool) {
	if len(m.next) > 0 && m.buffered-br.Buffered() == len(m.next) {
		m.raw, m.next = m.next, m.raw
		m.date, m.dateEnd = dateValue(m.raw)
		m.status, m.length, m.closeConn = status, length, closeConn
	}
	m.next = m.next[:0]
}
