package export

import (
	"sort"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// ClassicBounds are the upper bounds, in seconds, of the classic
// histograms pummel exports to a server without native histograms
// (--export-histograms classic): 50 µs to a minute in steps of 2 to 2.5,
// the le labels of the _bucket series (+Inf is added to them).
var ClassicBounds = []float64{
	0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
	0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
}

// classicCounts accumulates observations into ClassicBounds' buckets.
type classicCounts struct {
	counts []uint64 // counts[i]: in (bound i−1, bound i]; the last, above every bound
	count  uint64
	sum    float64
}

func newClassicCounts() *classicCounts {
	return &classicCounts{counts: make([]uint64, len(ClassicBounds)+1)}
}

func (c *classicCounts) reset() {
	clear(c.counts)
	c.count, c.sum = 0, 0
}

// addHDR adds the values of an HdrHistogram of nanoseconds, each of its
// buckets counted at its highest value, as nativeCounts.addHDR does.
func (c *classicCounts) addHDR(h *hdrhistogram.PackedHistogram) {
	for low, count := range h.ForEachBucket {
		width := hdrWidth(low)
		v := float64(low+width-1) / 1e9
		c.counts[sort.SearchFloat64s(ClassicBounds, v)] += uint64(count)
		c.count += uint64(count)
		c.sum += float64(count) * float64(low+width/2) / 1e9
	}
}

func (c *classicCounts) addPoint(h Histogram) {
	var below uint64
	for i, cum := range h.Cumulative {
		c.counts[i] += cum - below
		below = cum
	}
	c.counts[len(ClassicBounds)] += h.Count - below
	c.count += h.Count
	c.sum += h.Sum
}

func (c *classicCounts) point() Histogram {
	p := Histogram{Count: c.count, Sum: c.sum, Cumulative: make([]uint64, len(ClassicBounds))}
	var run uint64
	for i := range ClassicBounds {
		run += c.counts[i]
		p.Cumulative[i] = run
	}
	return p
}

var (
	_ counts = (*nativeCounts)(nil)
	_ counts = (*classicCounts)(nil)
)
