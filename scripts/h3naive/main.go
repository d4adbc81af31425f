// Command h3naive is the yardstick pummel's HTTP/3 is measured against:
// the client a Go programmer writes first, quic-go's http3.Transport
// under net/http's Client, one Transport per connection (a Transport
// pools one connection per host) and one goroutine per stream, each
// looping on Get and reading the body to its end. It prints the
// responses it counted and the QUIC packets its connections sent and
// received, on one line, as the benchmark scripts read them.
//
//	go run ./scripts/h3naive -c 64 -m 16 -d 10s -cacert ca.pem https://127.0.0.1:8443/
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
)

func main() {
	conns := flag.Int("c", 64, "connections")
	streams := flag.Int("m", 1, "requests in flight per connection")
	dur := flag.Duration("d", 10*time.Second, "how long to run")
	cacert := flag.String("cacert", "", "PEM file of the CA to trust")
	flag.Parse()
	if flag.NArg() != 1 || *conns < 1 || *streams < 1 || *dur <= 0 {
		fmt.Fprintln(os.Stderr, "usage: h3naive [-c N] [-m N] [-d D] [-cacert FILE] https://host:port/path")
		os.Exit(2)
	}
	tlsConf := &tls.Config{NextProtos: []string{http3.NextProtoH3}}
	if *cacert != "" {
		pem, err := os.ReadFile(*cacert)
		if err != nil {
			fmt.Fprintln(os.Stderr, "h3naive: -cacert:", err)
			os.Exit(2)
		}
		tlsConf.RootCAs = x509.NewCertPool()
		tlsConf.RootCAs.AppendCertsFromPEM(pem)
	}
	url := flag.Arg(0)
	ctx, cancel := context.WithTimeout(context.Background(), *dur)
	defer cancel()
	var ok, failed atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var dialed []*quic.Conn
	dial := func(ctx context.Context, addr string, tlsCfg *tls.Config, cfg *quic.Config) (*quic.Conn, error) {
		qc, err := quic.DialAddrEarly(ctx, addr, tlsCfg, cfg) // what the Transport does without Dial: a socket per connection
		if err == nil {
			mu.Lock()
			dialed = append(dialed, qc)
			mu.Unlock()
		}
		return qc, err
	}
	for range *conns {
		tr := &http3.Transport{TLSClientConfig: tlsConf, Dial: dial}
		defer tr.Close()
		client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
		for range *streams {
			wg.Go(func() {
				for ctx.Err() == nil {
					req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
					resp, err := client.Do(req)
					if err != nil {
						if ctx.Err() == nil {
							failed.Add(1)
						}
						continue
					}
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err == nil {
						ok.Add(1)
					} else if ctx.Err() == nil {
						failed.Add(1)
					}
				}
			})
		}
	}
	wg.Wait()
	var sent, received uint64
	for _, qc := range dialed {
		st := qc.ConnectionStats()
		sent, received = sent+st.PacketsSent, received+st.PacketsReceived
	}
	fmt.Printf("responses %d errors %d packets sent %d received %d\n", ok.Load(), failed.Load(), sent, received)
}
