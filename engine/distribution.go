package engine

import (
	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/pummel-dev/pummel/stats"
)

// latencyDistribution shows a nanosecond histogram to a script's done() in
// microseconds, as wrk's latency object.
type latencyDistribution struct {
	h    *hdrhistogram.Histogram
	bars []hdrhistogram.Bar // the non-empty buckets, in order
}

func newLatencyDistribution(h *hdrhistogram.Histogram) *latencyDistribution {
	d := &latencyDistribution{h: h}
	for _, b := range h.Distribution() {
		if b.Count > 0 {
			d.bars = append(d.bars, b)
		}
	}
	return d
}

func (d *latencyDistribution) Min() float64   { return float64(d.h.Min()) / 1e3 }
func (d *latencyDistribution) Max() float64   { return float64(d.h.Max()) / 1e3 }
func (d *latencyDistribution) Mean() float64  { return d.h.Mean() / 1e3 }
func (d *latencyDistribution) Stdev() float64 { return d.h.StdDev() / 1e3 }
func (d *latencyDistribution) Len() int       { return len(d.bars) }

// Percentile takes a percent (99, not 0.99), as wrk's.
func (d *latencyDistribution) Percentile(p float64) float64 {
	return float64(d.h.ValueAtPercentile(p)) / 1e3
}

func (d *latencyDistribution) At(i int) (float64, int64) {
	return float64(d.bars[i].To) / 1e3, d.bars[i].Count
}

// spreadDistribution shows the Req/Sec summary as wrk's requests object.
// Only the summary is kept, so its minimum is unknown (0), percentiles are
// the mean and there are no individual values.
type spreadDistribution struct{ s stats.Spread }

func (d spreadDistribution) Min() float64               { return 0 }
func (d spreadDistribution) Max() float64               { return d.s.Max }
func (d spreadDistribution) Mean() float64              { return d.s.Mean }
func (d spreadDistribution) Stdev() float64             { return d.s.Stdev }
func (d spreadDistribution) Percentile(float64) float64 { return d.s.Mean }
func (d spreadDistribution) Len() int                   { return 0 }
func (d spreadDistribution) At(int) (float64, int64)    { return 0, 0 }
