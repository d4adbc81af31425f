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

// NewRequest encodes a request. authority is the Host; the fields are
// those Fields lists.
func NewRequest(method, scheme, authority, path string, headers []Header, body []byte) *Request {
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	// A table size of zero makes every field a static reference or a
	// literal without indexing: the block never depends on what was sent
	// before. The first block starts with the size update; the second,
	// encoded the same way, is the one kept.
	enc.SetMaxDynamicTableSizeLimit(0)
	fields := Fields(method, scheme, authority, path, headers, len(body))
	write := func() {
		for _, f := range fields {
			enc.WriteField(hpack.HeaderField{Name: f.Name, Value: f.Value}) //nolint:errcheck // a bytes.Buffer does not fail
		}
	}
	write()
	buf.Reset()
	write()
	return &Request{block: bytes.Clone(buf.Bytes()), body: body, head: method == "HEAD"}
}

// Fields lists a request's header fields as HTTP/2 and HTTP/3 send them:
// the pseudo-header fields first, then headers with their names
// lower-cased, the connection-specific fields of HTTP/1.1 dropped (a "te"
// other than "trailers" too: RFC 9113 §8.2.2, RFC 9114 §4.2), and a
// content-length for a body of bodyLen bytes that has none.
func Fields(method, scheme, authority, path string, headers []Header, bodyLen int) []Header {
	fields := make([]Header, 0, len(headers)+5)
	fields = append(fields, Header{":method", method}, Header{":scheme", scheme},
		Header{":authority", authority}, Header{":path", path})
	hasLength := false
	for _, h := range headers {
		name := strings.ToLower(h.Name)
		if connectionHeaders[name] || name == "te" && !strings.EqualFold(h.Value, "trailers") {
			continue
		}
		hasLength = hasLength || name == "content-length"
		fields = append(fields, Header{name, h.Value})
	}
	if bodyLen > 0 && !hasLength {
		fields = append(fields, Header{"content-length", strconv.Itoa(bodyLen)})
	}
	return fields
}
