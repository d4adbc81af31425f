package engine

import (
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/server"
)

// builtinTarget starts the built-in server on loopback.
func builtinTarget(tb testing.TB) *url.URL {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	srv := server.New()
	go srv.Serve(ln) //nolint:errcheck // ends with Shutdown
	tb.Cleanup(func() { srv.Shutdown() })
	return &url.URL{Scheme: "http", Host: ln.Addr().String(), Path: "/"}
}

// BenchmarkRequest measures one keep-alive request through the hot loop
// (write, parse, record) against the in-process built-in target. Its
// allocs/op is the proof that the per-request path does not allocate; the
// server's own allocations, if any, are included, so 0 means both are clean.
func BenchmarkRequest(b *testing.B) {
	for _, path := range []string{"/", "/bytes/1024", "/bytes/100000"} {
		b.Run(path, func(b *testing.B) {
			u := builtinTarget(b)
			u.Path = path
			cfg := Config{URL: u, Connections: 1, Threads: 1, Duration: time.Hour, Timeout: 5 * time.Second}
			r, err := newRun(b.Context(), &cfg)
			if err != nil {
				b.Fatal(err)
			}
			w := newWorker(2, false)
			c := newConn(r, w)
			c.phase = measuredPhase
			c.do(ticket{count: 1, phase: measuredPhase}) // dial and warm up outside the measurement
			b.ReportAllocs()
			for b.Loop() {
				c.do(ticket{count: 1, phase: measuredPhase})
			}
			c.finish()
			if got := w.recs[measuredPhase].Requests(); got != int64(b.N)+1 {
				b.Fatalf("recorded %d responses, want %d", got, b.N+1)
			}
		})
	}
}
