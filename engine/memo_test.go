package engine

import (
	"bufio"
	"fmt"
	"io"
	"net/url"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
)

// chunks is a reader that returns one chunk per Read, as a socket returns
// what has arrived.
type chunks []string

func (c *chunks) Read(p []byte) (int, error) {
	if len(*c) == 0 {
		return 0, io.EOF
	}
	n := copy(p, (*c)[0])
	if (*c)[0] = (*c)[0][n:]; (*c)[0] == "" {
		*c = (*c)[1:]
	}
	return n, nil
}

// Blank lines before a status line (which a client must tolerate) are
// skipped by fasthttp, which then reads on past the first blank line: such
// a header is not remembered, or the blank line alone would be, and the
// stream would fall out of step.
func TestHeaderMemoSkipsLeadingBlankLines(t *testing.T) {
	const h = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n" // without its blank line
	c := &conn{run: &run{}, worker: &worker{}, wire: newWire()}
	c.br = bufio.NewReaderSize(&chunks{"\r\n\r\n" + h, "\r\n" + h, "\r\n", "\r\n\r\n" + h + "\r\n"}, 512)
	for i := range 3 {
		if status, _, f := c.readResponse(); f.failed() || status != 200 {
			t.Fatalf("response %d: status %d, failure %+v", i, status, f)
		}
	}
	if status, _, f := c.readResponse(); !f.failed() {
		t.Errorf("a fourth response (status %d) in a stream of three", status)
	}
}

// Responses recognised by the header memo read exactly as parsed ones:
// same status, same framing, same connection handling, and the stream
// stays in step. Headers that differ, end in bare line feeds, or follow
// an interim response are parsed.
func TestHeaderMemoReadsAsParsing(t *testing.T) {
	const (
		a       = "HTTP/1.1 200 OK\r\nServer: x\r\nContent-Length: 5\r\n\r\nhello"
		b       = "HTTP/1.1 200 OK\r\nServer: x\r\nContent-Length: 3\r\n\r\nabc"
		chunked = "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
		bareLF  = "HTTP/1.1 201 Created\nContent-Length: 2\n\nok"
		interim = "HTTP/1.1 100 Continue\r\n\r\n"
		closing = "HTTP/1.1 202 Accepted\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
		http10  = "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx"
		// fasthttp joins folded lines in the buffer as it parses
		folded     = "HTTP/1.1 200 OK\r\nX: a\r\n b\r\nContent-Length: 1\r\n\r\nz"
		foldedConn = "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\n ,close\r\nContent-Length: 0\r\n\r\n"
		// the Date value may change, not the lines around it
		dated     = "HTTP/1.1 200 OK\r\nDate: Mon, 30 Nov 2026 10:00:0%d GMT\r\nContent-Length: 2\r\n\r\nok"
		datedLong = "HTTP/1.1 200 OK\r\nDate: Mon, 30 Nov 2026 10:00:01  GMT\r\nContent-Length: 2\r\n\r\nok"
		lowerDate = "HTTP/1.1 200 OK\r\ndate: Mon, 30 Nov 2026 10:00:0%d GMT\r\nContent-Length: 2\r\n\r\nok"
		tabDate   = "HTTP/1.1 200 OK\r\nDate: Mon, 30 Nov 2026\t10:00:09 GMT\r\nContent-Length: 2\r\n\r\nok"
		// as long as a dated header's Date value, with a line break
		// inside: another header where the date was
		brokenDate = "HTTP/1.1 200 OK\r\nDate: 1\r\nConnection: close\r\nX: abcd\r\nContent-Length: 2\r\n\r\nok"
	)
	tests := []struct {
		response  string
		status    int
		closeConn bool
		hit       bool // recognised, not parsed
	}{
		{a, 200, false, false},
		{a, 200, false, true},
		{a, 200, false, true},
		{b, 200, false, false},
		{b, 200, false, true},
		{chunked, 404, false, false},
		{chunked, 404, false, true},
		{bareLF, 201, false, false}, // a copy through the next blank line would take in a
		{a, 200, false, false},
		{bareLF, 201, false, false},
		{a, 200, false, true},
		{interim + a, 200, false, false}, // both parsed: only a response's start is compared
		{a, 200, false, true},
		{closing, 202, true, false},
		{closing, 202, true, true},
		{http10, 200, true, false},
		{http10, 200, true, true},
		{folded, 200, false, false},
		{folded, 200, false, true},
		{foldedConn, 200, true, false},
		{foldedConn, 200, true, true},
		{fmt.Sprintf(dated, 0), 200, false, false},
		{fmt.Sprintf(dated, 1), 200, false, true}, // the next second
		{datedLong, 200, false, false},
		{fmt.Sprintf(dated, 2), 200, false, false},
		{brokenDate, 200, true, false},
		{fmt.Sprintf(dated, 3), 200, false, false},
		{tabDate, 200, false, false},
		{fmt.Sprintf(dated, 4), 200, false, false},
		{fmt.Sprintf(lowerDate, 5), 200, false, false},
		{fmt.Sprintf(lowerDate, 6), 200, false, true},
	}
	var stream strings.Builder
	for _, tt := range tests {
		stream.WriteString(tt.response)
	}
	c := &conn{run: &run{}, worker: &worker{}, wire: newWire()}
	c.br = bufio.NewReaderSize(strings.NewReader(stream.String()), 4096) // all of it buffered at once
	for i, tt := range tests {
		hits := c.memo.hits
		status, closeConn, f := c.readResponse()
		if f.failed() || status != tt.status || closeConn != tt.closeConn {
			t.Fatalf("response %d: status %d, close %v, failure %+v; want %d, %v", i, status, closeConn, f, tt.status, tt.closeConn)
		}
		if hit := c.memo.hits > hits; hit != tt.hit {
			t.Errorf("response %d: recognised %v, want %v", i, hit, tt.hit)
		}
	}
	if _, err := c.br.Peek(1); err == nil {
		t.Errorf("%d bytes left after the last response", c.br.Buffered())
	}
}

// A script's response() gets every response's own headers, so with a
// script nothing is remembered and every header is parsed.
func TestHeaderMemoNotWithAScript(t *testing.T) {
	const a = "HTTP/1.1 200 OK\r\nServer: x\r\nContent-Length: 0\r\n\r\n"
	u, _ := url.Parse("http://127.0.0.1:1/")
	cfg := Config{URL: u}
	threads, err := withScript(t, &cfg, example("auth.lua")).Threads(1, u.Host) // it has a response()
	if err != nil {
		t.Fatal(err)
	}
	c := &conn{run: &run{}, worker: &worker{script: &scripted{thread: threads[0]}}, wire: newWire()}
	c.br = bufio.NewReaderSize(strings.NewReader(a+a+a), 4096)
	for i := range 3 {
		if status, _, f := c.readResponse(); f.failed() || status != 200 {
			t.Fatalf("response %d: status %d, failure %+v", i, status, f)
		}
		if c.memo.hits != 0 || len(c.scriptHeaders) == 0 {
			t.Fatalf("response %d: %d recognised, %d headers kept for the script", i, c.memo.hits, len(c.scriptHeaders))
		}
	}
}

// The memo recognises a header whose Date value changed to any printable
// characters, which is sound only while fasthttp parses such a header as
// it parsed the remembered one: this pins that for the fasthttp in use.
func TestFasthttpAcceptsAnyPrintableDate(t *testing.T) {
	var value []byte
	for ch := byte(' '); ch <= '~'; ch++ {
		value = append(value, ch)
	}
	header := "HTTP/1.1 200 OK\r\nDate: " + string(value) + "\r\nContent-Length: 2\r\n\r\n"
	br := bufio.NewReaderSize(strings.NewReader(header+"ok"), 4096)
	var h fasthttp.ResponseHeader
	h.DisableNormalizing()
	if err := h.Read(br); err != nil {
		t.Fatalf("fasthttp rejects a printable Date value: %v", err)
	}
	if h.StatusCode() != 200 || h.ContentLength() != 2 || h.ConnectionClose() || br.Buffered() != 2 {
		t.Errorf("status %d, length %d, close %v, %d bytes left; want 200, 2, false, 2",
			h.StatusCode(), h.ContentLength(), h.ConnectionClose(), br.Buffered())
	}
}
