package h3

import (
	"bytes"

	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/quic-go/qpack"
)

// Request is one request as HTTP/3 sends it: the bytes of its HEADERS
// frame, and of a DATA frame for a body, written as they are on every
// stream.
type Request struct {
	wire []byte
	head bool // a HEAD request, whose response has no content
}

// NewRequest encodes a request with the fields HTTP/2 would send
// (h2.Fields): QPACK static-table references and literals, no dynamic
// table.
func NewRequest(method, scheme, authority, path string, headers []h2.Header, body []byte) *Request {
	var block bytes.Buffer
	enc := qpack.NewEncoder(&block)
	for _, f := range h2.Fields(method, scheme, authority, path, headers, len(body)) {
		enc.WriteField(qpack.HeaderField{Name: f.Name, Value: f.Value}) //nolint:errcheck // a bytes.Buffer does not fail
	}
	enc.Close() //nolint:errcheck // the same
	wire := appendFrame(nil, FrameHeaders, block.Bytes())
	if len(body) > 0 {
		wire = appendFrame(wire, FrameData, body)
	}
	return &Request{wire: wire, head: method == "HEAD"}
}

// Wire is the request's bytes, the same for every stream: write them and
// close the stream's send side.
func (r *Request) Wire() []byte { return r.wire }

// Head tells a HEAD request, whose response has no content.
func (r *Request) Head() bool { return r.head }
