package http1

import (
	"bufio"
	"fmt"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
)

// Responses recognised as the last header read exactly as parsed ones:
// same status, same framing, same connection handling, and the stream
// stays in step. Headers that differ, end in bare line feeds, or follow
// an interim response are parsed.
func TestLastHeaderReadsAsParsing(t *testing.T) {
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
		{bareLF, 201, false, false},
		{bareLF, 201, false, true},
		{a, 200, false, false},
		{bareLF, 201, false, false},
		{a, 200, false, false},
		{a, 200, false, true},
		{interim + a, 200, false, true}, // the interim response is parsed, the final one recognised
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
	buf := []byte(stream.String()) // all of it buffered at once
	p, hp := &Parser{Last: &LastHeader{}}, &HeaderParsers{own: newHeaderParser()}
	for i, tt := range tests {
		hits := p.Last.hits
		n, ev, err := p.Feed(buf, hp)
		if err != nil || ev != Responded || p.Status != tt.status || p.CloseConn != tt.closeConn {
			t.Fatalf("response %d: status %d, close %v, error %v; want %d, %v", i, p.Status, p.CloseConn, err, tt.status, tt.closeConn)
		}
		if hit := p.Last.hits > hits; hit != tt.hit {
			t.Errorf("response %d: recognised %v, want %v", i, hit, tt.hit)
		}
		buf = buf[n:]
	}
	if len(buf) != 0 {
		t.Errorf("%d bytes left after the last response", len(buf))
	}
}

// The last header recognises a header whose Date value changed to any printable
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
