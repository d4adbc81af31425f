package engine

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats/requestlog"
)

// builtinTarget starts the built-in server on loopback.
func builtinTarget(tb testing.TB) *url.URL {
	return &url.URL{Scheme: "http", Host: fixture.Builtin(tb), Path: "/"}
}

// transports lists the engines every engine test runs against: the
// event loop where it runs, and the goroutine transport everywhere.
func transports() []string {
	if loopSupported {
		return []string{EngineLoop, EngineGoroutine}
	}
	return []string{EngineGoroutine}
}

// BenchmarkRequest measures keep-alive requests through each transport,
// from the write to the recorded outcome, against the in-process built-in
// target, whose own per-request allocations are none.
func BenchmarkRequest(b *testing.B) {
	for _, engine := range transports() {
		for _, path := range []string{"/", "/bytes/1024", "/bytes/100000"} {
			b.Run(engine+path, func(b *testing.B) {
				u := builtinTarget(b)
				u.Path = path
				cfg := Config{URL: u, Engine: engine, Connections: 1, Threads: 1, Requests: int64(b.N), Timeout: 5 * time.Second}
				b.ReportAllocs()
				res, err := Run(b.Context(), cfg)
				if err != nil || res.Requests != int64(b.N) {
					b.Fatalf("err %v, %d responses of %d", err, res.Requests, b.N)
				}
			})
		}
	}
}

// TestNoAllocationPerRequest gates the steady state of each transport,
// also with the request log on: between two progress reports well into a
// run, the process allocates far less than once per request. (The
// sampler allocates a little every second; the run's set-up and its end
// are outside the window.)
func TestNoAllocationPerRequest(t *testing.T) {
	if testing.Short() {
		t.Skip("counts allocations over a run")
	}
	for _, engine := range transports() {
		for _, mode := range []string{"", "request log", "targets"} {
			t.Run(strings.TrimSuffix(engine+"/"+mode, "/"), func(t *testing.T) { checkNoAllocation(t, engine, mode) })
		}
	}
}

// samplerAllowance is how many allocations the sampler and the runtime
// may make in a second of the test's window, whatever the requests.
const samplerAllowance = 100

// allocationWindow is how many requests the counted window holds at
// least: one allocation per request would be fifty times the allowance,
// one per twenty requests still more than it.
const allocationWindow = 5000

// checkNoAllocation runs the mode's load: plain, with a request log, or
// with a list of targets sent pipelined (each batch built in its
// connection's buffer).
func checkNoAllocation(t *testing.T, engine, mode string) {
	logged := mode == "request log"
	u := builtinTarget(t)
	cfg := Config{URL: u, Engine: engine, Connections: 4, Threads: 2, Timeout: 5 * time.Second}
	if logged {
		cfg.RequestLog = fileLog(t)
	}
	if mode == "targets" {
		cfg.Pipeline = 3
		// Requests of three sizes, with empty responses: a body larger
		// than the read buffer goes through scratchPool, which -race
		// empties at random, so it would allocate under -race alone.
		for i, query := range []string{"a", "bb", "cccccccc"} {
			tu := *u
			tu.RawQuery = query
			cfg.Targets = append(cfg.Targets, Target{URL: &tu, Weight: i + 1})
		}
	}
	checkAllocations(t, cfg)
	if logged && cfg.RequestLog.Dropped() > 0 {
		t.Logf("%d log lines dropped", cfg.RequestLog.Dropped())
	}
}

// checkAllocations runs cfg, counting the process's allocations from its
// second progress report on, and fails unless there are none per
// request. The run lasts until that window holds allocationWindow
// requests, however slow the machine: a fixed -d once left a busy one too
// few requests to judge, and a fast one waiting.
func checkAllocations(t *testing.T, cfg Config) {
	t.Helper()
	checkAllocationsBeyond(t, cfg, 0)
}

// checkAllocationsBeyond is checkAllocations allowing perRequest
// allocations per request made by others than pummel (crypto/tls).
func checkAllocationsBeyond(t *testing.T, cfg Config, perRequest uint64) {
	t.Helper()
	type sample struct {
		requests, mallocs uint64
		at                time.Time
	}
	var samples []sample
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	cfg.Duration = time.Minute // a bound: the window's end stops the run
	cfg.Progress = func(p Progress) {
		if n := len(samples); n > 1 && samples[n-1].requests-samples[1].requests >= allocationWindow {
			return // the window is closed; the run is stopping
		}
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		samples = append(samples, sample{uint64(p.Requests), m.Mallocs, time.Now()})
		if n := len(samples); n > 2 && samples[n-1].requests-samples[1].requests >= allocationWindow {
			stop()
		}
	}
	if _, err := Run(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	n := len(samples)
	if n < 3 || samples[n-1].requests-samples[1].requests < allocationWindow {
		t.Fatalf("%d progress reports, fewer than %d requests after the first two: the run ended early", n, allocationWindow)
	}
	first, last := samples[1], samples[n-1]
	requests, mallocs := last.requests-first.requests, last.mallocs-first.mallocs
	// The sampler's few dozen allocations a second are a fixed allowance:
	// under -race the window holds only a few thousand requests, and they
	// alone once made 50 allocations for 4,371 requests look like 0.011
	// per request. One allocation on any request's path makes thousands.
	allowance := uint64(samplerAllowance * max(1, last.at.Sub(first.at).Seconds()))
	if mallocs > allowance+requests/100+perRequest*requests {
		t.Errorf("%d allocations for %d requests in %v, want none per request", mallocs, requests, last.at.Sub(first.at).Round(time.Millisecond))
	}
}

// fileLog starts a request log written into a file of the test's
// directory, closed when the test ends.
func fileLog(t *testing.T) *requestlog.Log {
	f, err := os.Create(filepath.Join(t.TempDir(), "requests.csv"))
	if err != nil {
		t.Fatal(err)
	}
	l := requestlog.New(requestlog.Options{})
	drained := make(chan error, 1)
	go func() { drained <- l.Drain(f) }()
	t.Cleanup(func() {
		l.Close()
		if err := errors.Join(<-drained, f.Close()); err != nil {
			t.Error(err)
		}
	})
	return l
}
