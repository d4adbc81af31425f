package engine

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/stats"
)

func TestClientUsage(t *testing.T) {
	cpus := runtime.NumCPU()
	tests := []struct {
		name      string
		cpu, wall time.Duration
		saturated bool
	}{
		{"idle", 0, time.Second, false},
		{"half busy", time.Duration(cpus) * 500 * time.Millisecond, time.Second, false},
		{"just under", time.Duration(cpus) * 899 * time.Millisecond, time.Second, false},
		{"saturated", time.Duration(cpus) * 950 * time.Millisecond, time.Second, true},
		{"no time measured", time.Second, 0, false},
		{"too short to judge", time.Duration(cpus) * 20 * time.Millisecond, time.Millisecond, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := clientUsage(tt.cpu, tt.wall)
			if u.Saturated != tt.saturated || u.CPUs != cpus {
				t.Errorf("clientUsage(%v, %v) = %+v, want saturated %v", tt.cpu, tt.wall, u, tt.saturated)
			}
			if tt.saturated && !strings.Contains(stats.SaturationWarning(u), "client rather than the server") {
				t.Errorf("warning %q", stats.SaturationWarning(u))
			}
		})
	}
}

func TestRunMeasuresItsOwnCPU(t *testing.T) {
	u := builtinTarget(t)
	res, err := Run(t.Context(), Config{URL: u, Connections: 2, Threads: 1, Duration: 300 * time.Millisecond, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.Client.CPUSeconds <= 0 || res.Client.CPUPercent <= 0 || res.Client.CPUs != runtime.NumCPU() {
		t.Errorf("client usage %+v: a busy run used no CPU?", res.Client)
	}
}
