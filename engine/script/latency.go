package script

import (
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// AddLatencies merges a run's latency histogram (nanoseconds, as
// recorded) into done()'s latency argument. The engine calls it once per
// Run, after the run, with the merged histogram of the measured requests,
// so that done() reads the histogram itself rather than one encoded into
// the result and decoded again; with --runs it sees every run's.
func (p *Program) AddLatencies(h *hdrhistogram.Histogram) {
	if p.latencies == nil {
		p.latencies = record.NewHistogram()
	}
	p.latencies.Merge(h)
}

// Finish runs the script's done(summary, latency, requests), if it has
// one, with res's totals and Req/Sec summary and the latencies the runs
// added (AddLatencies). Call it once, after the last run.
func (p *Program) Finish(res stats.Result) error {
	if !p.HasDone() {
		return nil
	}
	if p.latencies == nil {
		p.latencies = record.NewHistogram()
	}
	e := res.Errors
	s := Summary{Duration: time.Duration(res.DurationS * float64(time.Second)), Requests: res.Requests, Bytes: res.BytesRead,
		Errors: Errors{Connect: e.Connect, Read: e.Read, Write: e.Write, Status: e.Status, Timeout: e.Timeout}}
	return p.Done(s, newLatencyDistribution(p.latencies), spreadDistribution{res.ThreadRate})
}

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
