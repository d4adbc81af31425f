package http1

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// parsed is one response as the parser read it.
type parsed struct {
	status    int
	closeConn bool
	body      string
}

// parseStream feeds stream to a parser in the given pieces, as a
// connection's reads would bring it, keeping a partial header for the next
// piece; closed tells whether the server closed after the last piece.
func parseStream(p *Parser, pieces []string, closed bool) ([]parsed, error) {
	hp := &HeaderParsers{own: newHeaderParser()}
	var got []parsed
	var pending []byte
	for _, piece := range pieces {
		pending = append(pending, piece...)
		for len(pending) > 0 {
			n, ev, err := p.Feed(pending, hp)
			if err != nil {
				return got, err
			}
			pending = pending[n:]
			if ev != Responded {
				break
			}
			got = append(got, parsed{p.Status, p.CloseConn, string(p.Body)})
		}
		pending = append([]byte(nil), pending...) // the caller's buffer is reused
	}
	if closed && p.Closed() {
		got = append(got, parsed{p.Status, p.CloseConn, string(p.Body)})
	}
	return got, nil
}

// splits cuts s into pieces in every way the tests try: whole, a byte at a
// time, and at random places.
func splits(s string, rng *rand.Rand) map[string][]string {
	bytewise := make([]string, len(s))
	for i := range s {
		bytewise[i] = s[i : i+1]
	}
	var random []string
	for rest := s; len(rest) > 0; {
		n := min(len(rest), 1+rng.IntN(40))
		random, rest = append(random, rest[:n]), rest[n:]
	}
	return map[string][]string{"whole": {s}, "bytewise": bytewise, "random": random}
}

func TestParserFramesResponses(t *testing.T) {
	long := strings.Repeat("e", 2000)
	tests := []struct {
		name   string
		stream string
		head   bool // the requests were HEAD
		closed bool // the server closed after the stream
		want   []parsed
		err    error
	}{
		{name: "content-length, pipelined",
			stream: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
			want:   []parsed{{200, false, "hello"}, {404, false, ""}}},
		{name: "chunked with extensions and trailers",
			stream: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;a=b\r\nabc\r\n2 ;x\r\nde\r\n0\r\nX-Trailer: 1\r\n\r\n",
			want:   []parsed{{200, false, "abcde"}}},
		{name: "a 2,000-byte chunk extension and trailer",
			stream: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;" + long + "\r\nx\r\n0\r\nT: " + long + "\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n",
			want:   []parsed{{200, false, "x"}, {201, false, ""}}},
		{name: "bare LF line ends",
			stream: "HTTP/1.1 201 Created\nContent-Length: 2\n\nokHTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n2\nhi\n0\n\n",
			want:   []parsed{{201, false, "ok"}, {200, false, "hi"}}},
		{name: "interim response first",
			stream: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx",
			want:   []parsed{{200, false, "x"}}},
		{name: "no body after HEAD", head: true,
			stream: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n",
			want:   []parsed{{200, false, ""}, {200, false, ""}}},
		{name: "no body in 204 and 304",
			stream: "HTTP/1.1 204 No Content\r\nContent-Length: 3\r\n\r\nHTTP/1.1 304 Not Modified\r\n\r\n",
			want:   []parsed{{204, false, ""}, {304, false, ""}}},
		{name: "announced close",
			stream: "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
			want:   []parsed{{200, true, "ok"}}},
		{name: "body until the server closes", closed: true,
			stream: "HTTP/1.0 200 OK\r\n\r\nall of it",
			want:   []parsed{{200, true, "all of it"}}},
		{name: "empty lines before a response",
			stream: "\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
			want:   []parsed{{200, false, ""}, {200, false, ""}}},
		{name: "chunked last of the codings",
			stream: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\n\x1f\x8b\x08\r\n0\r\n\r\n" +
				"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n",
			want: []parsed{{200, false, "\x1f\x8b\x08"}, {200, false, "z"}}},
		{name: "codings in two fields, chunked last, over a Content-Length",
			stream: "HTTP/1.1 200 OK\nContent-Length: 100\nTransfer-Encoding: gzip\ntransfer-encoding: CHUNKED\n\n2\nhi\n0\n\nHTTP/1.1 204 No Content\r\n\r\n",
			want:   []parsed{{200, false, "hi"}, {204, false, ""}}},
		{name: "chunked not last: the body ends at the close", closed: true,
			stream: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\nContent-Length: 2\r\n\r\n0\r\n\r\nall of it",
			want:   []parsed{{200, true, "0\r\n\r\nall of it"}}},
		{name: "a coding without chunked: the body ends at the close", closed: true,
			stream: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nall of it",
			want:   []parsed{{200, true, "all of it"}}},
		{name: "not HTTP/1.x", stream: "HTTP/9 nonsense\r\n\r\n", err: ErrMalformed},
		{name: "a chunk size that is not hex",
			stream: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", err: ErrMalformed},
		{name: "a chunk size over 15 digits",
			stream: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1000000000000000\r\n", err: ErrMalformed},
		{name: "chunk data longer than its size",
			stream: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nxy\r\n0\r\n\r\n", err: ErrMalformed},
		{name: "a header over 64 KiB",
			stream: "HTTP/1.1 200 OK\r\nX: " + strings.Repeat("v", MaxHeaderSize), err: ErrHeaderLarge},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tt := range tests {
		for how, pieces := range splits(tt.stream, rng) {
			t.Run(tt.name+"/"+how, func(t *testing.T) {
				p := &Parser{Head: tt.head, KeepBody: true, Last: &LastHeader{}}
				got, err := parseStream(p, pieces, tt.closed)
				if !errors.Is(err, tt.err) {
					t.Fatalf("error %v, want %v", err, tt.err)
				}
				if tt.err != nil {
					return
				}
				if len(got) != len(tt.want) {
					t.Fatalf("responses %+v, want %+v", got, tt.want)
				}
				for i := range got {
					if got[i] != tt.want[i] {
						t.Errorf("response %d: %+v, want %+v", i, got[i], tt.want[i])
					}
				}
				if p.Started() {
					t.Errorf("a response is left partly read")
				}
			})
		}
	}
}

// A header that arrives again with another Date is recognised as the last header
// instead of parsed, and reads the same.
func TestParserRemembersTheHeader(t *testing.T) {
	const a = "HTTP/1.1 200 OK\r\nDate: Tue, 01 Dec 2026 15:25:39 GMT\r\nContent-Length: 2\r\n\r\nok"
	const b = "HTTP/1.1 200 OK\r\nDate: Tue, 01 Dec 2026 15:25:40 GMT\r\nContent-Length: 2\r\n\r\nok"
	p := &Parser{KeepBody: true, Last: &LastHeader{}}
	got, err := parseStream(p, []string{a, b, a}, false)
	if err != nil || len(got) != 3 || got[2] != (parsed{200, false, "ok"}) {
		t.Fatalf("got %+v, %v", got, err)
	}
	if p.Last.hits != 2 {
		t.Errorf("last header hits %d, want 2", p.Last.hits)
	}
}

func FuzzParser(f *testing.F) {
	f.Add("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;a=b\r\nabc\r\n0\r\nT: 1\r\n\r\n", uint64(1))
	f.Add("HTTP/1.1 200 OK\nContent-Length: 2\n\nok", uint64(2))
	f.Add("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n", uint64(3))
	f.Fuzz(func(t *testing.T, stream string, seed uint64) {
		rng := rand.New(rand.NewPCG(seed, seed))
		var first []parsed
		for _, pieces := range splits(stream, rng) {
			got, err := parseStream(&Parser{KeepBody: true, Last: &LastHeader{}}, pieces, true)
			if err != nil {
				return
			}
			if first == nil {
				first = got
			} else if len(got) != len(first) {
				t.Fatalf("%d responses one way, %d another", len(got), len(first))
			}
		}
	})
}
