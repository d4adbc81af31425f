package engine

import (
	"fmt"

	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/pummel-dev/pummel/engine/h3"
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
	// HTTP3 is HTTP/3 over QUIC (https only, ALPN "h3"); Config.Streams
	// requests in flight per connection, each on its own stream.
	HTTP3
)

// String names p as ALPN does: "http/1.1", "h2" or "h3".
func (p Protocol) String() string {
	switch p {
	case HTTP1:
		return "http/1.1"
	case HTTP2:
		return "h2"
	case HTTP3:
		return "h3"
	}
	return fmt.Sprintf("Protocol(%d)", uint8(p))
}

// recordProtocol writes into rc the protocol the run speaks, as JSON
// records it: "http/1.1", "h2" (HTTP/2 over TLS), "h2c" (HTTP/2 in the
// clear) or "h3", and the streams per connection of HTTP/2 and HTTP/3.
func (c *Config) recordProtocol(rc *stats.Config) {
	rc.Protocol = c.Protocol.String()
	if c.Protocol != HTTP1 {
		rc.Streams = c.StreamsPerConn()
	}
	if c.Protocol == HTTP2 {
		if c.URL == nil || c.URL.Scheme != "https" {
			rc.Protocol = "h2c"
		}
	}
}

// encoded is a request as each protocol sends it, encoded once.
type encoded struct {
	// http1 is HTTP/1.1's bytes, which also digest the request
	// (requestDigest).
	http1 []byte
	h2    *h2.Request // for HTTP/2
	h3    *h3.Request // for HTTP/3
}

// encodeRequest encodes c's request once in what its protocol sends:
// HTTP/1.1's bytes always, and HTTP/2's or HTTP/3's when it speaks them.
func encodeRequest(c *Config) (e encoded, err error) {
	if e.http1, err = buildRequest(c); err != nil {
		return encoded{}, err
	}
	switch c.Protocol {
	case HTTP2:
		e.h2 = buildH2Request(c)
	case HTTP3:
		e.h3 = h3.NewRequest(c.method(), c.URL.Scheme, requestAuthority(c), c.URL.RequestURI(), requestFields(c), c.Body)
	}
	return e, nil
}
