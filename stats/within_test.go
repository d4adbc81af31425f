package stats_test

import (
	"math"
	"runtime"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/internal/statstest"
)

// TestWithinStdevCountsOverlappingBuckets pins the share within one
// standard deviation to the reading of every bucket of the histogram
// (the library's Distribution) that overlaps [mean-stdev, mean+stdev].
func TestWithinStdevCountsOverlappingBuckets(t *testing.T) {
	for _, tt := range histogramCases {
		t.Run(tt.name, func(t *testing.T) {
			h := histogramOf(t, tt.values)
			if h.TotalCount() == 0 {
				return // no summary
			}
			got := stats.Summarize(h).WithinStdevPct
			if want := withinByDistribution(h); math.Abs(got-want) > 1e-9 {
				t.Errorf("WithinStdevPct = %v, want %v (from every bucket)", got, want)
			}
		})
	}
}

// TestSummarizeLongTailAllocatesLittle guards the end of a run, which
// summarizes its latency (and, open loop, the uncorrected latency and the
// lag): a long tail must not make a summary allocate a bar per bucket up
// to the maximum (about 2.5 MB for this histogram through the library's
// Distribution), which raised the run's peak memory.
func TestSummarizeLongTailAllocatesLittle(t *testing.T) {
	h := histogramOf(t, append(statstest.Spread(50_000, 300_000, 97), 2*time.Second))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	stats.Summarize(h)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 512<<10 {
		t.Errorf("Summarize allocated %d KiB, want at most 512 KiB", n>>10)
	}
}

// withinByDistribution is the share of values in buckets overlapping one
// standard deviation around the mean, read from every bucket.
func withinByDistribution(h *hdrhistogram.Histogram) float64 {
	lo, hi := h.Mean()-h.StdDev(), h.Mean()+h.StdDev()
	var n int64
	for _, bar := range h.Distribution() {
		if bar.Count > 0 && float64(bar.To) >= lo && float64(bar.From) <= hi {
			n += bar.Count
		}
	}
	return 100 * float64(n) / float64(h.TotalCount())
}
