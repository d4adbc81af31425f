package http1

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

const (
	get     = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
	post    = "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
	chunked = "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
)

// TestCountRequests checks where countRequests ends each request of what a
// script's request() returned: framed as a server reads it, and never more
// requests than a server would answer.
func TestCountRequests(t *testing.T) {
	const (
		te  = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
		cl1 = "POST / HTTP/1.1\r\nContent-Length: 1\r\n\r\n"
	)
	tests := []struct {
		name     string
		requests []string // the input, one request (as framed) per item
	}{
		{"one GET", []string{get}},
		{"two pipelined", []string{get, get}},
		{"content-length body", []string{post, get}},
		{"body that looks like a request", []string{"POST / HTTP/1.1\r\nContent-Length: 18\r\n\r\n" + get[:18], get}},
		{"chunked", []string{chunked, get}},
		{"chunked body holding blank lines", []string{te + "4\r\n\r\n\r\n\r\n0\r\n\r\n", get}},
		{"chunk extensions", []string{te + "5;name=\"v;x\"\r\nhello\r\n0;last\r\n\r\n", get}},
		{"long chunk extension", []string{te + "1;" + strings.Repeat("e", 2000) + "\r\nx\r\n0\r\n\r\n", get}},
		{"trailers", []string{te + "1\r\nx\r\n0\r\nX-Sum: 1\r\nX-Other: 2\r\n\r\n", get}},
		{"long trailer", []string{te + "0\r\nX-Pad: " + strings.Repeat("t", 2000) + "\r\n\r\n", get}},
		{"chunked last in a list, any case", []string{"POST / HTTP/1.1\r\ntransfer-encoding: gzip, CHUNKED\r\n\r\n0\r\n\r\n", get}},
		{"chunked overrides content-length", []string{"POST / HTTP/1.1\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", get}},
		{"hex sizes", []string{te + "A\r\n0123456789\r\n1f\r\n" + strings.Repeat("y", 31) + "\r\n0\r\n\r\n", get}},
		{"bare LF lines", []string{"GET / HTTP/1.1\nHost: x\n\n", "POST / HTTP/1.1\nTransfer-Encoding: chunked\n\n1\nx\n0\n\n", get}},
		{"blank lines before a request", []string{get, "\r\n" + get}},
		{"blank lines at the end", []string{get + "\r\n\r\n"}},
		{"same content-length twice", []string{"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx", get}},
		{"a folded header", []string{"GET / HTTP/1.1\r\nX-A: 1\r\n 2\r\n\r\n", get}},

		// Incomplete or malformed: the rest is one last request, which the
		// server answers once (if at all) before it closes.
		{"no end of head", []string{"GET / HTTP/1.1\r\nHost: x\r\n"}},
		{"short body", []string{get, "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc"}},
		{"short chunk", []string{get, te + "5\r\nab"}},
		{"no last chunk", []string{te + "1\r\nx\r\n" + get}},
		{"no end of trailers", []string{te + "0\r\nX-Sum: 1\r\n"}},
		{"bad chunk size", []string{te + "zz\r\n" + get}},
		{"no chunk size", []string{te + ";x\r\n" + get}},
		{"chunk data not ended by CRLF", []string{te + "1\r\nxy\r\n0\r\n\r\n" + get}},
		{"transfer-encoding not ending in chunked", []string{"POST / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n" + get}},
		{"transfer-encoding in HTTP/1.0", []string{"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + get}},
		{"bad content-length", []string{"POST / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n" + get}},
		{"negative content-length", []string{"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n" + get}},
		{"two content-lengths", []string{"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab" + get}},
		{"huge content-length", []string{"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n" + get}},
		{"content-length past int64", []string{"POST / HTTP/1.1\r\nContent-Length: 9223372036854775808\r\n\r\n" + get}},
		{"huge chunk size", []string{te + "fffffffffffffffffffff\r\n" + get}},
		{"folded content-length", []string{"POST / HTTP/1.1\r\nContent-Length: 1\r\n 2\r\n\r\nx" + get}},
		{"garbage", []string{"\x00\xff garbage"}},
		{"only blank lines", []string{"\r\n\r\n"}},
		{"nothing", nil},
		{"content-length then garbage", []string{cl1 + "x", "\x00"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want []int
			for _, r := range tt.requests {
				want = append(want, len(r)+sum(want))
			}
			in := strings.Join(tt.requests, "")
			got := CountRequests([]byte(in), nil)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("countRequests(%q) = %v, want %v", in, got, want)
			}
			if std, ok := readRequests([]byte(in)); ok && fmt.Sprint(got) != fmt.Sprint(std) {
				t.Errorf("countRequests(%q) = %v, net/http reads requests ending at %v", in, got, std)
			}
		})
	}
}

// sum returns the last of ends, 0 for none: where the next request starts.
func sum(ends []int) int {
	if len(ends) == 0 {
		return 0
	}
	return ends[len(ends)-1]
}

// TestCountRequestsDoesNotAllocate keeps the splitter, called for every
// request a script makes, off the heap once ends has grown.
func TestCountRequestsDoesNotAllocate(t *testing.T) {
	b := []byte(chunked + post + get)
	ends := CountRequests(b, nil)
	if allocs := testing.AllocsPerRun(100, func() { ends = CountRequests(b, ends) }); allocs != 0 {
		t.Errorf("%v allocations per call, want 0", allocs)
	}
}

// FuzzCountRequests checks that countRequests ends every input, never
// panics, returns increasing ends that cover the input, and agrees with
// net/http's request reader wherever that reader takes the whole input.
func FuzzCountRequests(f *testing.F) {
	for _, s := range []string{get, post + get, chunked + chunked, get + "\r\n", "POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ends := CountRequests(b, nil)
		checkEnds(t, b, ends)
		if want, ok := readRequests(b); ok && fmt.Sprint(ends) != fmt.Sprint(want) {
			t.Errorf("countRequests(%q) = %v, net/http reads requests ending at %v", b, ends, want)
		}
	})
}

// checkEnds checks that ends split all of b into non-empty parts.
func checkEnds(t *testing.T, b []byte, ends []int) {
	t.Helper()
	prev := 0
	for _, e := range ends {
		if e <= prev || e > len(b) {
			t.Fatalf("countRequests(%q) = %v: not increasing within the input", b, ends)
		}
		prev = e
	}
	if prev != len(b) {
		t.Fatalf("countRequests(%q) = %v: does not cover the input", b, ends)
	}
}

// readRequests reads b as a server built on net/http would, and returns
// where each request ends; ok is false unless every byte of b belongs to a
// request it read without error.
func readRequests(b []byte) (ends []int, ok bool) {
	r := bufio.NewReader(bytes.NewReader(b))
	for {
		if _, err := r.Peek(1); err == io.EOF {
			return ends, len(ends) > 0
		}
		req, err := http.ReadRequest(r)
		if err != nil {
			return nil, false
		}
		if _, err := io.Copy(io.Discard, req.Body); err != nil {
			return nil, false
		}
		ends = append(ends, len(b)-r.Buffered())
	}
}
