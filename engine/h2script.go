package engine

import (
	"bufio"
	"bytes"
	"fmt"

	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/valyala/fasthttp"
)

// H2FromWire turns one HTTP/1.1 request, as a script's request() returns
// it (wrk.format), into an HTTP/2 request: its Host header is the
// :authority, and the fields HTTP/2 forbids are dropped.
func H2FromWire(raw []byte, scheme string) (*h2.Request, error) {
	var req fasthttp.Request
	br := bufio.NewReader(bytes.NewReader(raw))
	if err := req.Read(br); err != nil {
		return nil, fmt.Errorf("request(): not an HTTP/1.1 request: %w", err)
	}
	if br.Buffered() > 0 {
		return nil, fmt.Errorf("request(): with --http2, return one request at a time, not %d bytes more", br.Buffered())
	}
	var headers []h2.Header
	for k, v := range req.Header.All() {
		headers = append(headers, h2.Header{Name: string(k), Value: string(v)})
	}
	return h2.NewRequest(string(req.Header.Method()), scheme, string(req.Host()), string(req.RequestURI()),
		headers, bytes.Clone(req.Body())), nil
}
