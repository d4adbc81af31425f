package engine

import (
	"bufio"
	"bytes"
	"fmt"
	"time"

	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/valyala/fasthttp"
)

// h2Request is the request the ticket in hand goes out as: the one built
// before the clock, or, when a script's request() makes each request, its
// HTTP/1.1 text turned into HTTP/2's header block and body. It returns
// nil when the script failed, which was counted.
func (h *h2Conn) h2Request() (*h2.Request, uint32) {
	if !h.load.fromScript {
		return h.h2Target(h.next)
	}
	raw, err := h.scriptRequest()
	if err == nil {
		var req *h2.Request
		if req, err = h2FromWire(raw, h.load.cfg.URL.Scheme); err == nil {
			return req, 0
		}
	}
	h.scriptFailed(h.next, err)
	return nil, 0
}

// h2FromWire turns one HTTP/1.1 request, as a script's request() returns
// it (wrk.format), into an HTTP/2 request: its Host header is the
// :authority, and the fields HTTP/2 forbids are dropped.
func h2FromWire(raw []byte, scheme string) (*h2.Request, error) {
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

// h2Ready readies the ticket in hand: the script's delay(), if it has
// one, sets when it may go (sendAt, with an open-loop ticket's due time).
// It reports false when delay() failed: the ticket was counted.
func (h *h2Conn) h2Ready(now time.Time) bool {
	h.sendAt = h.next.due
	d, ok := h.scriptDelay(h.next)
	if !ok {
		h.hasNext = false
		return false
	}
	if d > 0 {
		h.sendAt = later(h.sendAt, now.Add(d))
	}
	return true
}
