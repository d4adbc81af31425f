package engine

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net/url"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/testcert"
	"github.com/quic-go/qpack"
	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/quicvarint"
)

// TestHTTP3ASlowBodyHoldsOnlyItsStream: a request whose body waits for the
// server's flow control (a server that never reads that stream) waits
// alone; the connection's other streams go on. It is a server of its own:
// it never reads its first stream, and answers each other one with an
// empty 200 once it read the request.
func TestHTTP3ASlowBodyHoldsOnlyItsStream(t *testing.T) {
	cert := testcert.New(t, "127.0.0.1")
	ln, err := quic.ListenAddr("127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert.TLS}, NextProtos: []string{"h3"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var block bytes.Buffer
	enc := qpack.NewEncoder(&block)
	enc.WriteField(qpack.HeaderField{Name: ":status", Value: "200"}) //nolint:errcheck // a bytes.Buffer
	enc.Close()                                                      //nolint:errcheck // the same
	response := quicvarint.Append(quicvarint.Append(nil, 0x1), uint64(block.Len()))
	response = append(response, block.Bytes()...)
	go func() {
		for {
			qc, err := ln.Accept(context.Background())
			if err != nil {
				return
			}
			go func() {
				for first := true; ; first = false {
					str, err := qc.AcceptStream(context.Background())
					if err != nil {
						return
					}
					if first {
						continue // never read: its body fills the stream's window and waits
					}
					go func() {
						if _, err := io.Copy(io.Discard, str); err == nil {
							str.Write(response) //nolint:errcheck // the client counts what arrives
							str.Close()         //nolint:errcheck // the same
						}
					}()
				}
			}()
		}
	}()
	u, _ := url.Parse("https://" + ln.Addr().String() + "/")
	res, err := Run(t.Context(), Config{URL: u, TLS: &tls.Config{RootCAs: cert.Pool}, Connections: 1, Threads: 1,
		Duration: time.Second, Timeout: 10 * time.Second, Protocol: HTTP3, Streams: 4, Method: "POST",
		Body: bytes.Repeat([]byte{'x'}, 600<<10)}) // above quic-go's 512 KiB stream window
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests == 0 || res.Errors.Total() != 0 {
		t.Errorf("%d responses, errors %v; want the other streams answered while the first waits", res.Requests, res.ErrorCauses)
	}
}
