package main

import (
	"runtime"
	"testing"
)

// Every event loop keeps a P and the runtime two more, within the CPUs the
// process may use, never fewer than the runtime chose by itself.
func TestProcsFor(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		loops, cpus, current int
		want                 int
	}{
		{"one loop on a big machine", 1, 32, 32, 32},
		{"container limit below the loops' needs", 16, 32, 2, 18},
		{"container limit, few loops", 2, 32, 2, 4},
		{"loops beyond the CPUs allowed", 16, 8, 4, 8},
		{"default already enough", 4, 8, 8, 8},
		{"one CPU", 1, 1, 1, 1},
		{"default above the CPUs (GOMAXPROCS set)", 2, 2, 6, 6},
	} {
		if got := procsFor(tc.loops, tc.cpus, tc.current); got != tc.want {
			t.Errorf("%s: procsFor(%d, %d, %d) = %d, want %d", tc.name, tc.loops, tc.cpus, tc.current, got, tc.want)
		}
	}
}

// TestRaiseProcs: a run raises GOMAXPROCS for its loops, unless the user
// set GOMAXPROCS, which stays as chosen.
func TestRaiseProcs(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("needs two CPUs to raise GOMAXPROCS above one")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	t.Setenv("GOMAXPROCS", "1")
	runtime.GOMAXPROCS(1)
	raiseProcs(4)
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS set to 1 by the user: raised to %d", got)
	}
	t.Setenv("GOMAXPROCS", "")
	runtime.GOMAXPROCS(1)
	url := targetURL(t)
	if code, _, errOut := pummel(t.Context(), "-t", "2", "-c", "2", "-n", "10", "-q", url); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got, want := runtime.GOMAXPROCS(0), min(2+runtimeHeadroom, runtime.NumCPU()); got != want {
		t.Errorf("after a run of 2 threads: GOMAXPROCS %d, want %d", got, want)
	}
}
