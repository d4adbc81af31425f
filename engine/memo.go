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
// again (nginx's changes with its Date, once a second), so most responses
// are recognised by one comparison instead of a parse, which was the
// largest item of pummel's own CPU time in a profile of a pipelined run.
//
// It is sound because a parse depends on the bytes alone: a header is
// remembered only when it was buffered whole, starting with its status
// line, and fasthttp consumed exactly the bytes through its first blank
// line, so the remembered bytes are a whole header and fasthttp read
// nothing more to parse it. A buffer that starts with them starts with
// that same header. The bytes are copied before the parse, which may
// rewrite them in place (folded header lines are joined).
type headerMemo struct {
	raw       []byte // the remembered header
	status    int
	length    int // as fasthttp's ContentLength: -1 chunked, -2 until close
	closeConn bool
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
	if !bytes.Equal(b, m.raw) {
		return false
	}
	br.Discard(len(m.raw)) //nolint:errcheck // buffered
	m.hits++
	return true
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
		m.status, m.length, m.closeConn = status, length, closeConn
	}
	m.next = m.next[:0]
}
