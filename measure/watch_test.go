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
	srv := fixture.New(t, fixture.Behaviour{})
	u, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	cfg := engine.Config{URL: u, Connections: 1, Threads: 1, Requests: 50, Duration: 20 * time.Second, Timeout: 5 * time.Second}
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
// the watch goes on between them.
func TestStepKeepsWatching(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	u, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	cfg := engine.Config{URL: u, Connections: 1, Threads: 1, Requests: 20, Duration: 20 * time.Second, Timeout: 5 * time.Second}
	w, err := Attach([]int{os.Getpid()}, Options{WatchOptions: proc.WatchOptions{Every: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	for step := range 2 {
		cfg.Requests = int64(20 * (step + 1))
		res, err := w.Step(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Server) != 1 || res.Server[0].CPUUsPerRequest <= 0 || res.Server[0].RSSBytes.After <= 0 {
			t.Fatalf("step %d: server figures %+v", step, res.Server)
		}
		if w.Watchers()[0].Exited() {
			t.Fatalf("step %d: the watch ended", step)
		}
	}
}
