//go:build linux

package measure

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/proc"
)

// burn spends CPU time on a fixed amount of work: enough that the warm-up
// outweighs what the engine itself, watched in the same process, spends
// around the measured requests (0.13 s under -race once, against 0.26 s
// for a warm-up a third of this one).
func burn() uint64 {
	x := uint64(1)
	for i := range 60_000_000 {
		x = x*6364136223846793005 + uint64(i)
	}
	return x
}

// cpuSeconds is this process's user + system CPU time so far.
func cpuSeconds(t *testing.T) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

var sink atomic.Uint64

// TestServerCPULeavesOutTheWarmup watches this process while its own
// server burns CPU on each warm-up request only: the server's CPU time is
// that of the measured requests, far below what the warm-up burnt.
func TestServerCPULeavesOutTheWarmup(t *testing.T) {
	const warmup = 10
	before := cpuSeconds(t)
	for range warmup {
		sink.Add(burn())
	}
	burnt := cpuSeconds(t) - before
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if served.Add(1) <= warmup {
			sink.Add(burn())
		}
	}))
	defer srv.Close()
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	cfg := engine.Config{URL: u, Connections: 1, Threads: 1, Requests: 5, WarmupRequests: warmup, Duration: 60 * time.Second, Timeout: 30 * time.Second}
	w, err := Attach([]int{os.Getpid()}, Options{WatchOptions: proc.WatchOptions{Every: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.Load(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Server) != 1 || res.Server[0].CPUSeconds >= burnt/2 {
		t.Errorf("server figures %+v: want less CPU than half the warm-up's %.3fs", res.Server, burnt)
	}
}
