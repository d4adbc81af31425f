package engine

import (
	"fmt"

	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/pummel-dev/pummel/stats"
)

// Protocol is the HTTP version a load speaks. The zero value is HTTP/1.1.
//
// It is read where a protocol is chosen: the connection each transport
// makes (engine/goroutine/goroutines.go, engine/loop/loopconn_linux.go), the request's encodings
// (encodeRequest), TLS's ALPN offer (dial.go), what a transport can serve
// (transport.go), the checks of Validate and what a result records of it
// (recordProtocol). Everything else asks one of them.
type Protocol uint8

// The protocols a load speaks.
const (
	// HTTP1 is HTTP/1.1, with keep-alive and pipelining.
	HTTP1 Protocol = iota
	// HTTP2 is HTTP/2: h2 over TLS (https) when ALPN chooses it, else h2c
	// with prior knowledge; Config.Streams requests in flight per
	// connection.
	HTTP2
)

// String names p as ALPN does: "http/1.1" or "h2".
func (p Protocol) String() string {
	switch p {
	case HTTP1:
		return "http/1.1"
	case HTTP2:
		return "h2"
	}
	return fmt.Sprintf("Protocol(%d)", uint8(p))
}

// recordProtocol writes into rc the protocol the run speaks, as JSON
// records it: "http/1.1", "h2" (HTTP/2 over TLS) or "h2c" (HTTP/2 in the
// clear), and HTTP/2's streams per connection.
func (c *Config) recordProtocol(rc *stats.Config) {
	rc.Protocol = c.Protocol.String()
	if c.Protocol == HTTP2 {
		rc.Streams = c.StreamsPerConn()
		if c.URL == nil || c.URL.Scheme != "https" {
			rc.Protocol = "h2c"
		}
	}
}

// encodeRequest encodes c's request once in what its protocol sends:
// HTTP/1.1's bytes, which also digest the request (requestDigest), and for
// HTTP/2 its header block and body as well.
func encodeRequest(c *Config) (request []byte, h2req *h2.Request, err error) {
	if request, err = buildRequest(c); err != nil {
		return nil, nil, err
	}
	if c.Protocol == HTTP2 {
		h2req = buildH2Request(c)
	}
	return request, h2req, nil
}
