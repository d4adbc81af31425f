package main

import "testing"

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
