package stats

import (
	"math"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Summarize computes the latency summary of a nanosecond histogram, in
// microseconds, or nil when it is empty. Min and max are the histogram's
// (equivalent-value) bounds.
func Summarize(h *hdrhistogram.Histogram) *Latency {
	return summarizeWithin(h, float64(h.Min())/1e3, float64(h.Max())/1e3)
}

// summarizeWithin is Summarize with lo and hi, in microseconds, as min
// and max: the exact extremes recorded, where the histogram's are rounded
// to its buckets. HdrHistogram answers a percentile with the highest value
// of its bucket, and the mean from the buckets' middles, which can lie
// beyond what was recorded (a p99 of 164.095us for a max of 164.063us):
// every figure is clamped into [lo, hi], so that none contradicts another.
// This is the one place where summaries are made, so every output agrees.
func summarizeWithin(h *hdrhistogram.Histogram, lo, hi float64) *Latency {
	if h.TotalCount() == 0 {
		return nil
	}
	at := func(percentile float64) float64 {
		return min(max(float64(h.ValueAtPercentile(percentile))/1e3, lo), hi)
	}
	mean, stdev := h.Mean(), h.StdDev()
	return &Latency{
		Min:            lo,
		Mean:           min(max(mean/1e3, lo), hi),
		Stdev:          stdev / 1e3,
		Max:            hi,
		P50:            at(50),
		P75:            at(75),
		P90:            at(90),
		P95:            at(95),
		P99:            at(99),
		P999:           at(99.9),
		P9999:          at(99.99),
		WithinStdevPct: withinStdev(h, mean, stdev),
	}
}

// Micros turns a figure in microseconds, as results hold latencies, into
// a duration rounded to the microsecond.
func Micros(us float64) time.Duration {
	return time.Duration(us * float64(time.Microsecond)).Round(time.Microsecond)
}

// withinStdev returns the percentage of recorded values within one standard
// deviation of the mean: the counts of the buckets that overlap it. It
// walks a sparse copy of h, the size of its populated buckets: the
// library's Distribution would build a bar for every bucket up to the
// maximum: megabytes for a long tail, at the end of every run.
func withinStdev(h *hdrhistogram.Histogram, mean, stdev float64) float64 {
	lo, hi := mean-stdev, mean+stdev
	packed := hdrhistogram.NewPacked(h.LowestTrackableValue(), h.HighestTrackableValue(), int(h.SignificantFigures()))
	packed.MergeFrom(h)
	var n int64
	for from, count := range packed.ForEachBucket {
		if float64(from) > hi {
			break
		}
		// A bucket below lo still overlaps [lo, hi] if it holds ⌈lo⌉.
		if float64(from) >= lo || h.ValuesAreEquivalent(from, int64(math.Ceil(lo))) {
			n += count
		}
	}
	return 100 * float64(n) / float64(h.TotalCount())
}
