package engine

import (
	"runtime"
	"time"

	"github.com/pummel-dev/pummel/stats"
)

// clientUsage describes pummel's own CPU use over the run (warm-up
// included): cpu is the process's CPU time in it, wall its length. A run
// shorter than stats.MinUsageSpan gets no share, and so never a
// saturation warning. runtime.NumCPU counts the CPUs the process may run
// on (its affinity mask, as taskset sets it).
func clientUsage(cpu, wall time.Duration) stats.ClientUsage {
	u := stats.ClientUsage{CPUs: runtime.NumCPU(), CPUSeconds: cpu.Seconds()}
	if wall >= stats.MinUsageSpan && cpu > 0 {
		u.CPUPercent = 100 * cpu.Seconds() / wall.Seconds() / float64(u.CPUs)
		u.Saturated = u.CPUPercent >= stats.SaturatedPercent
	}
	return u
}
