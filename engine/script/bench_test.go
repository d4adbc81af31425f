package script

import (
	"context"
	"io"
	"path/filepath"
	"testing"
)

// benchThread loads path with one thread for a benchmark.
func benchThread(b *testing.B, path string, args ...string) *Thread {
	b.Helper()
	p, err := Load(context.Background(), path, Options{Args: args, Target: target, Output: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(p.Close)
	ths, err := p.Threads(context.Background(), 1, "127.0.0.1:8080")
	if err != nil {
		b.Fatal(err)
	}
	return ths[0]
}

// BenchmarkAppendRequest measures one request() call per iteration, into a
// reused buffer, for the shapes of script the benchmark compares.
func BenchmarkAppendRequest(b *testing.B) {
	benchmarks := []struct{ name, src string }{
		{"no request()", ""},
		{"prebuilt string", "local r = wrk.format()\nfunction request() return r end"},
		{"counter.lua", ""},
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			path := filepath.Join(examples, bm.name)
			if bm.name != "counter.lua" {
				path = filepath.Join(b.TempDir(), "bench.lua")
				if err := writeFile(path, bm.src); err != nil {
					b.Fatal(err)
				}
			}
			th := benchThread(b, path)
			buf := make([]byte, 0, 512)
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if buf, err = th.AppendRequest(buf[:0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkResponse measures one response() call with two headers and a
// small body, as stop.lua receives them.
func BenchmarkResponse(b *testing.B) {
	th := benchThread(b, filepath.Join(examples, "stop.lua"), "1e18")
	headers := []Header{{"Content-Type", "text/plain"}, {"Content-Length", "2"}}
	body := []byte("ok")
	b.ReportAllocs()
	for b.Loop() {
		if err := th.Response(200, headers, body); err != nil {
			b.Fatal(err)
		}
	}
}
