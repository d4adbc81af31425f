package measure

import (
	"errors"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/proc"
)

// TestLoadAttachesEachProcesssFigures runs a load against an in-process
// server with this process watched (twice, as --pid twice would): each
// watched process gets its figures, in order, with its RSS over the load
// only when asked for.
func TestLoadAttachesEachProcesssFigures(t *testing.T) {
	cfg := requestsToFixture(t, 50)
	for _, points := range []int{0, 10} {
		w, err := Attach([]int{os.Getpid(), os.Getpid()}, Options{WatchOptions: proc.WatchOptions{Every: 5 * time.Millisecond}, RSSPoints: points})
		if err != nil {
			t.Fatal(err)
		}
		if idle, err := w.Idle(t.Context()); err != nil || len(idle) != 2 || idle[0] <= 0 {
			t.Fatalf("idle %v, %v: want two samples", idle, err)
		}
		res, err := w.Load(t.Context(), cfg)
		w.Stop()
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Server) != 2 || res.Server[1].PID != os.Getpid() || res.Server[0].RSSBytes.After <= 0 {
			t.Fatalf("RSS points %d: server figures %+v, want two of this process", points, res.Server)
		}
		if got := len(res.Server[0].RSSSeries); (points == 0) != (got == 0) || got > points {
			t.Errorf("RSS points %d: %d in the series", points, got)
		}
	}
}

func TestAttachFailsOnAProcessThatIsNotRunning(t *testing.T) {
	if _, err := Attach([]int{os.Getpid(), 1 << 30}, Options{}); !errors.Is(err, proc.ErrNoSuchProcess) {
		t.Errorf("Attach = %v, want %v", err, proc.ErrNoSuchProcess)
	}
}

// TestStepKeepsWatching runs two loads over one watch, as a capacity
// search's steps: each gets the process's figures of its own load, and
// the watcher's own sampling goes on during each step and between them.
// StartLoad and EndLoad take a sample of their own even on a stopped
// watcher, so a count of samples, or the figures, would not tell a
// stopped watch from a running one: the test waits for a sample that only
// the sampling goroutine takes, while the step's load is held open (Run
// waits for OnMeasure) and again after the step.
func TestStepKeepsWatching(t *testing.T) {
	base := requestsToFixture(t, 0)
	w, err := Attach([]int{os.Getpid()}, Options{WatchOptions: proc.WatchOptions{Every: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	pw := w.Watchers()[0]
	for step := range 2 {
		sampled := make(chan bool, 1)
		cfg := base
		cfg.Requests = int64(20 * (step + 1))
		cfg.OnMeasure = func(time.Time) { sampled <- sampledAfter(pw, len(pw.Series())) }
		res, err := w.Step(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		// Not CPUUsPerRequest > 0: CPU time is read in clock ticks (10 ms),
		// more than a short step may use, so it was 0 in some runs.
		if len(res.Server) != 1 || res.Server[0].RSSBytes.Peak <= 0 || res.Server[0].RSSBytes.After <= 0 {
			t.Fatalf("step %d: server figures %+v", step, res.Server)
		}
		if !<-sampled {
			t.Fatalf("step %d: no sample taken by the watcher during the step", step)
		}
		if !sampledAfter(pw, len(pw.Series())) || pw.Usage().ExitedDuringLoad {
			t.Fatalf("step %d: the watch ended with the step", step)
		}
	}
}

// sampledAfter reports whether the watcher's series grows beyond n
// samples within a few seconds: far more than its 5 ms interval.
func sampledAfter(pw *proc.Watcher, n int) bool {
	for range 500 {
		if len(pw.Series()) > n {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// requestsToFixture starts a counting server and returns a load of n
// requests to it on one connection.
func requestsToFixture(t *testing.T, n int64) engine.Config {
	t.Helper()
	srv := fixture.New(t, fixture.Behaviour{})
	u, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	return engine.Config{URL: u, Connections: 1, Threads: 1, Requests: n, Duration: 20 * time.Second, Timeout: 5 * time.Second}
}
