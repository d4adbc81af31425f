package h2

import (
	"bytes"
	"strconv"
	"strings"

	"golang.org/x/net/http2/hpack"
)

// Request is one request as HTTP/2 sends it: its header block is encoded
// once, as HPACK static-table references and literals without indexing, so
// that the bytes are the same for every stream and only the stream id in
// the frame header changes.
type Request struct {
	block []byte
	body  []byte
	head  bool // a HEAD request, whose response has no content
}

// Header is one request header field.
type Header struct{ Name, Value string }

// connectionHeaders are HTTP/1.1 header fields that HTTP/2 forbids (RFC
// 9113 §8.2.2); they are left out rather than sent as a malformed request.
var connectionHeaders = map[string]bool{
	"connection": true, "keep-alive": true, "proxy-connection": true,
	"transfer-encoding": true, "upgrade": true, "host": true,
}

// NewRequest encodes a request. authority is the Host; header names are
// lower-cased as HTTP/2 requires, and the connection-specific fields of
// HTTP/1.1 are dropped (a "te" other than "trailers" too). A body gets a
// content-length.
func NewRequest(method, scheme, authority, path string, headers []Header, body []byte) *Request {
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	// A table size of zero makes every field a static reference or a
	// literal without indexing: the block never depends on what was sent
	// before. The first block starts with the size update; the second,
	// encoded the same way, is the one kept.
	enc.SetMaxDynamicTableSizeLimit(0)
	write := func() {
		fields := []hpack.HeaderField{
			{Name: ":method", Value: method},
			{Name: ":scheme", Value: scheme},
			{Name: ":authority", Value: authority},
			{Name: ":path", Value: path},
		}
		hasLength := false
		for _, h := range headers {
			name := strings.ToLower(h.Name)
			if connectionHeaders[name] || name == "te" && !strings.EqualFold(h.Value, "trailers") {
				continue
			}
			hasLength = hasLength || name == "content-length"
			fields = append(fields, hpack.HeaderField{Name: name, Value: h.Value})
		}
		if len(body) > 0 && !hasLength {
			fields = append(fields, hpack.HeaderField{Name: "content-length", Value: strconv.Itoa(len(body))})
		}
		for _, f := range fields {
			enc.WriteField(f) //nolint:errcheck // a bytes.Buffer does not fail
		}
	}
	write()
	buf.Reset()
	write()
	return &Request{block: bytes.Clone(buf.Bytes()), body: body, head: method == "HEAD"}
}
