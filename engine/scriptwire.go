package engine

import (
	"bufio"
	"bytes"
	"fmt"

	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/pummel-dev/pummel/engine/h3"
	"github.com/valyala/fasthttp"
)

// wireRequest is one HTTP/1.1 request, as a script's request() returns it
// (wrk.format), in the parts HTTP/2 and HTTP/3 send: its Host header is
// the :authority.
type wireRequest struct {
	method, authority, path string
	headers                 []h2.Header
	body                    []byte
}

// parseWire reads raw as one HTTP/1.1 request for a run over protocol
// (--http2, --http3), which sends one request per stream.
func parseWire(raw []byte, protocol string) (wireRequest, error) {
	var req fasthttp.Request
	br := bufio.NewReader(bytes.NewReader(raw))
	if err := req.Read(br); err != nil {
		return wireRequest{}, fmt.Errorf("request(): not an HTTP/1.1 request: %w", err)
	}
	if br.Buffered() > 0 {
		return wireRequest{}, fmt.Errorf("request(): with %s, return one request at a time, not %d bytes more", protocol, br.Buffered())
	}
	var headers []h2.Header
	for k, v := range req.Header.All() {
		headers = append(headers, h2.Header{Name: string(k), Value: string(v)})
	}
	return wireRequest{string(req.Header.Method()), string(req.Host()), string(req.RequestURI()), headers, bytes.Clone(req.Body())}, nil
}

// H2FromWire turns one HTTP/1.1 request, as a script's request() returns
// it, into an HTTP/2 request; the fields HTTP/2 forbids are dropped.
func H2FromWire(raw []byte, scheme string) (*h2.Request, error) {
	w, err := parseWire(raw, "--http2")
	if err != nil {
		return nil, err
	}
	return h2.NewRequest(w.method, scheme, w.authority, w.path, w.headers, w.body), nil
}

// H3FromWire turns one HTTP/1.1 request, as a script's request() returns
// it, into an HTTP/3 request, with the fields HTTP/2 would send.
func H3FromWire(raw []byte) (*h3.Request, error) {
	w, err := parseWire(raw, "--http3")
	if err != nil {
		return nil, err
	}
	return h3.NewRequest(w.method, "https", w.authority, w.path, w.headers, w.body), nil
}
