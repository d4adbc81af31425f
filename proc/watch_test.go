//go:build unix

package proc

import (
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
)

const mib = 1 << 20

func TestWatchSeesMemoryGrowUnderLoad(t *testing.T) {
	t.Parallel()
	s := testSpec(t)
	p := launch(t, s)
	w, err := Watch(p.PID(), WatchOptions{Every: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	idle, err := w.Idle(t.Context(), 3, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	w.StartLoad()
	get(t, baseURL(s)+"/grow?mb=50")
	time.Sleep(60 * time.Millisecond) // a few periodic samples during the load
	w.EndLoad()
	u := w.Stop()

	if u.PID != p.PID() || u.RSSBytes.Idle != idle || idle <= 0 {
		t.Fatalf("Stop() = %+v; want pid %d and idle %d > 0", u, p.PID(), idle)
	}
	if u.RSSBytes.Peak < idle+45*mib || u.RSSBytes.After < idle+45*mib {
		t.Errorf("RSS idle %d, peak %d, after %d: want peak and after ≥ idle + 45 MiB", idle, u.RSSBytes.Peak, u.RSSBytes.After)
	}
	if u.ExitedDuringLoad {
		t.Errorf("ExitedDuringLoad = true for a running server")
	}
	assertSeriesOrdered(t, w.Series(), 3+2)
}

func TestWatchTakesAfterSampleAtEndLoad(t *testing.T) {
	t.Parallel()
	s := testSpec(t)
	p := launch(t, s)
	// A sampling interval far beyond the test: only Watch, StartLoad and
	// EndLoad take samples.
	w, err := Watch(p.PID(), WatchOptions{Every: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	w.StartLoad()
	before := w.Series()[1].RSSBytes
	get(t, baseURL(s)+"/grow?mb=50")
	w.EndLoad()
	u := w.Stop()
	series := w.Series()
	if len(series) != 3 {
		t.Fatalf("%d samples, want 3 (Watch, StartLoad, EndLoad)", len(series))
	}
	if last := series[2].RSSBytes; u.RSSBytes.After != last || last < before+45*mib {
		t.Errorf("after = %d, last sample %d, before the load %d: want the sample taken at EndLoad, 45 MiB up", u.RSSBytes.After, last, before)
	}
	if u.RSSBytes.Peak != u.RSSBytes.After {
		t.Errorf("peak = %d, want the after sample %d", u.RSSBytes.Peak, u.RSSBytes.After)
	}
}

func TestWatchCountsCPUDuringLoad(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		burn     string
		tree     bool
		min, max float64 // CPU seconds
	}{
		{name: "idle server", max: 0.1},
		{name: "server burns 300ms", burn: "/burn?ms=300", min: 0.1, max: 5},
		{name: "shell child burns, tree", burn: "/burn?ms=300", tree: true, min: 0.1, max: 5},
		{name: "shell child burns, shell alone", burn: "/burn?ms=300", max: 0.1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := testSpec(t)
			if strings.HasPrefix(tt.name, "shell") {
				s.Command, s.Shell = []string{strings.Join(s.Command, " ") + " & wait"}, true
			}
			p := launch(t, s)
			w, err := Watch(p.PID(), WatchOptions{Every: 50 * time.Millisecond, Tree: tt.tree})
			if err != nil {
				t.Fatal(err)
			}
			w.StartLoad()
			if tt.burn != "" {
				get(t, baseURL(s)+tt.burn)
			}
			w.EndLoad()
			if u := w.Stop(); u.CPUSeconds < tt.min || u.CPUSeconds > tt.max {
				t.Errorf("CPUSeconds = %.3f, want in [%.2f, %.2f]", u.CPUSeconds, tt.min, tt.max)
			}
		})
	}
}

func TestWatchReportsAProcessThatExits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		start func(t *testing.T) int // starts a server that exits after 150ms
		// reasons are the exit reasons allowed: a reaped process is a
		// zombie for the moment before its parent's wait returns, and a
		// sample may fall in it when the machine is busy.
		reasons []string
	}{
		{name: "reaped by its parent", start: startReaped, reasons: []string{"no longer running", "zombie"}},
		{name: "zombie, not yet reaped", start: startUnreaped, reasons: []string{"zombie"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w, err := Watch(tt.start(t), WatchOptions{Every: 20 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			w.StartLoad()
			waitFor(t, w.isExited, 3*time.Second)
			w.EndLoad()
			u := w.Stop()
			if !u.ExitedDuringLoad || u.ExitS == nil || *u.ExitS <= 0 || *u.ExitS > 3 || !slices.Contains(tt.reasons, u.ExitReason) {
				t.Errorf("Stop() = %+v (exit_s %v); want exited after 0-3s, one of %q", u, fmtPtr(u.ExitS), tt.reasons)
			}
			if u.RSSBytes.After != 0 || u.RSSBytes.Peak <= 0 || u.CPUSeconds < 0 {
				t.Errorf("RSS %+v, CPU %.3f: want no after sample, a peak, CPU ≥ 0", u.RSSBytes, u.CPUSeconds)
			}
			// The exit was seen before: Idle says how it was seen then.
			if _, err := w.Idle(t.Context(), 1, 0); !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), "("+u.ExitReason+")") {
				t.Errorf("Idle after the exit: %v, want ErrExited (%s)", err, u.ExitReason)
			}
		})
	}
}

// startReaped launches a server that exits after 150ms; Process reaps it.
func startReaped(t *testing.T) int {
	return launch(t, testSpec(t, "-exit-after", "150ms")).PID()
}

// startUnreaped starts a server that exits after 150ms and is reaped only
// when the test ends, so it lingers as a zombie meanwhile.
func startUnreaped(t *testing.T) int {
	cmd := exec.Command(serverBin, "-addr", fixture.FreeAddr(t), "-exit-after", "150ms")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Wait() })
	return cmd.Process.Pid
}

func TestWatchRejectsMissingProcesses(t *testing.T) {
	t.Parallel()
	gone := exec.Command(serverBin, "-fail", "x")
	_ = gone.Run()
	tests := []struct {
		name string
		pid  int
		want string
	}{
		{"exited and reaped", gone.Process.Pid, fmt.Sprintf("--pid %d: no such process", gone.Process.Pid)},
		{"zero", 0, "--pid 0: not a process id"},
		{"negative", -5, "--pid -5: not a process id"},
		{"beyond any pid", 1 << 40, fmt.Sprintf("--pid %d: not a process id", 1<<40)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := Watch(tt.pid, WatchOptions{})
			if w != nil || err == nil || err.Error() != tt.want {
				t.Errorf("Watch(%d) = %v, %v; want %q", tt.pid, w, err, tt.want)
			}
		})
	}
}

// waitFor polls cond until it holds, failing the test after d.
func waitFor(t *testing.T, cond func() bool, d time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(d); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %s", d)
		}
	}
}

// assertSeriesOrdered checks that the series has at least n samples, in
// time order.
func assertSeriesOrdered(t *testing.T, series []Sample, n int) {
	t.Helper()
	if len(series) < n {
		t.Errorf("%d samples, want at least %d", len(series), n)
	}
	for i := 1; i < len(series); i++ {
		if series[i].Offset < series[i-1].Offset {
			t.Errorf("sample %d at %s before sample %d at %s", i, series[i].Offset, i-1, series[i-1].Offset)
		}
	}
}

func fmtPtr(f *float64) string {
	if f == nil {
		return "nil"
	}
	return fmt.Sprint(*f)
}
