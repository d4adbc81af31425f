package engine

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/url"
	"testing"
	"time"

	"golang.org/x/net/http2"
)

// Response header blocks of startLeanH2C.
var (
	// staticBlock is the static table's ":status 200".
	staticBlock = []byte{0x88}
	// nginxBlock is nginx 1.22's, recorded: ":status 200", then server,
	// date, content-type and content-length as literals with incremental
	// indexing, which the client's decoder inserts in its table.
	nginxBlock, _ = hex.DecodeString("887689aa6355e580ae212e1f6196e4593e940094be52282009c500ddc13f702ca98b46ff5f87497ca58ae819aa5c0130")
)

// startLeanH2C serves h2c with prior knowledge and allocates nothing per
// request, so that a test counting the process's allocations counts the
// client's: it answers every stream that ends with an empty response
// whose header block is block.
func startLeanH2C(t *testing.T, block []byte) *url.URL {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go serveLean(ln, block)
	u, _ := url.Parse("http://" + ln.Addr().String() + "/")
	return u
}

// serveLean answers every connection ln accepts as leanH2C does, until
// ln closes.
func serveLean(ln net.Listener, block []byte) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go leanH2C(c, block)
	}
}

func leanH2C(c net.Conn, block []byte) {
	defer c.Close()
	r := bufio.NewReaderSize(c, 64<<10)
	if _, err := r.Discard(len(http2.ClientPreface)); err != nil {
		return
	}
	out := []byte{0, 0, 0, byte(http2.FrameSettings), 0, 0, 0, 0, 0}
	var head [9]byte
	payload := make([]byte, 1<<14)
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return
		}
		length := int(head[0])<<16 | int(head[1])<<8 | int(head[2])
		if _, err := io.ReadFull(r, payload[:length]); err != nil {
			return
		}
		typ, flags := http2.FrameType(head[3]), http2.Flags(head[4])
		switch {
		case typ == http2.FrameSettings && flags&http2.FlagSettingsAck == 0:
			out = append(out, 0, 0, 0, byte(http2.FrameSettings), byte(http2.FlagSettingsAck), 0, 0, 0, 0)
		case (typ == http2.FrameHeaders || typ == http2.FrameData) && flags&http2.FlagHeadersEndStream != 0:
			out = append(out, 0, 0, byte(len(block)), byte(http2.FrameHeaders), byte(http2.FlagHeadersEndStream|http2.FlagHeadersEndHeaders))
			out = binary.BigEndian.AppendUint32(out, binary.BigEndian.Uint32(head[5:]))
			out = append(out, block...)
		}
		if r.Buffered() == 0 && len(out) > 0 {
			if _, err := c.Write(out); err != nil {
				return
			}
			out = out[:0]
		}
	}
}

// TestHTTP2NoAllocationPerRequest holds HTTP/2's request path to the
// rule of HTTP/1.1's (TestNoAllocationPerRequest): no allocation per
// request in the steady state, against a server whose every response
// inserts header fields in the client's HPACK table (nginx) too.
func TestHTTP2NoAllocationPerRequest(t *testing.T) {
	if testing.Short() {
		t.Skip("counts allocations over a run")
	}
	tests := []struct {
		server  string
		block   []byte
		streams int
	}{
		{"static", staticBlock, 1},
		{"static", staticBlock, 16},
		{"nginx", nginxBlock, 16},
	}
	for _, engine := range transports() {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/%s/streams %d", engine, tt.server, tt.streams), func(t *testing.T) {
				checkAllocations(t, Config{URL: startLeanH2C(t, tt.block), Engine: engine, Connections: 4, Threads: 2,
					Timeout: 5 * time.Second, Protocol: HTTP2, Streams: tt.streams})
			})
		}
	}
}
