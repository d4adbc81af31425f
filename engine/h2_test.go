package engine

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/http2"
)

// startH2C serves h on a loopback h2c (prior knowledge) listener and
// counts the requests it answers.
func startH2C(t *testing.T, h http.HandlerFunc) (*url.URL, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	srv := &http2.Server{MaxConcurrentStreams: 250}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1); h(w, r) })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go srv.ServeConn(c, &http2.ServeConnOpts{Handler: handler})
		}
	}()
	t.Cleanup(func() { ln.Close() })
	u, _ := url.Parse("http://" + ln.Addr().String() + "/")
	return u, &n
}

func TestHTTP2ExactCount(t *testing.T) {
	for _, streams := range []int{1, 16, 100} {
		u, served := startH2C(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
		cfg := Config{URL: u, Connections: 4, Threads: 2, Requests: 3000, Timeout: 5 * time.Second,
			HTTP2: true, Streams: streams, Checks: Checks{Body: []byte("ok")}}
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Requests != 3000 || served.Load() != 3000 || res.Errors.Total() != 0 {
			t.Errorf("--streams %d: %d requests, server saw %d, errors %v", streams, res.Requests, served.Load(), res.Errors)
		}
	}
}
