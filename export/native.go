package export

import (
	"math"
	"math/bits"
	"sort"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Schema is the schema of the native histograms pummel exports: 8, the
// finest Prometheus accepts (-4 to 8). Bucket i holds the values in
// (2^((i-1)/256), 2^(i/256)] seconds, so a bucket is 0.27% wide
// (BucketWidth), and a quantile read from it lies within that of the
// value it estimates. pummel's own histograms (HdrHistogram, 3
// significant digits) resolve 0.05–0.1%: no schema Prometheus accepts is
// closer to them than 8.
const Schema = 8

// BucketWidth is a schema-8 bucket's width relative to its lower bound,
// 2^(1/256) − 1: how far apart a quantile Prometheus reads from a native
// histogram and the same quantile of pummel's result may lie.
var BucketWidth = math.Exp2(1.0/(1<<Schema)) - 1

// ZeroThreshold is the native histograms' zero bucket: observations at
// or below it, none for a latency (pummel records at least 1 ns). It is
// client_golang's default.
const ZeroThreshold = 0x1p-128

// Histogram is one point of a histogram series: cumulative, in seconds.
// A native histogram has Buckets, a classic one Cumulative.
type Histogram struct {
	Count uint64
	Sum   float64
	// Buckets are a native histogram's populated buckets (schema 8), by
	// ascending index.
	Buckets []Bucket
	// Cumulative[i] counts the observations at or below ClassicBounds[i]
	// (a classic histogram; nil for a native one).
	Cumulative []uint64
}

// counts accumulates a histogram series: native or classic.
type counts interface {
	reset()
	// addHDR adds the values of an HdrHistogram of nanoseconds.
	addHDR(h *hdrhistogram.PackedHistogram)
	// addPoint adds a point of the same kind, as point returned it.
	addPoint(h Histogram)
	// point returns the cumulative point.
	point() Histogram
}

// Bucket is one populated bucket of a native histogram.
type Bucket struct {
	Index int32
	Count uint64
}

// nativeIndex returns the index of the schema-8 bucket that holds v > 0,
// by the frexp method of client_golang and Prometheus, so that a value on
// a boundary falls in the bucket they would put it in.
func nativeIndex(v float64) int32 {
	frac, exp := math.Frexp(v) // v = frac × 2^exp, frac in [0.5, 1)
	const per = 1 << Schema
	// bounds[j] = 2^(j/256 − 1): the first j whose bound is ≥ frac.
	j := sort.Search(per, func(j int) bool { return math.Exp2(float64(j)/per-1) >= frac })
	return int32(j + (exp-1)*per)
}

// The index range of latencies pummel records: 1 ns to 1 hour.
var (
	minIndex = nativeIndex(1e-9)
	maxIndex = nativeIndex(3600)
)

// nativeCounts accumulates observations into schema-8 buckets: dense
// over pummel's range (about 10,700 buckets, 86 KB), so that adding is an
// index and a snapshot walks only the populated span.
type nativeCounts struct {
	counts []uint64 // counts[i - minIndex]
	lo, hi int32    // the populated span, lo > hi when empty
	count  uint64
	sum    float64
}

func newNativeCounts() *nativeCounts {
	n := &nativeCounts{counts: make([]uint64, maxIndex-minIndex+1)}
	n.reset()
	return n
}

func (n *nativeCounts) reset() {
	if n.lo <= n.hi {
		clear(n.counts[n.lo-minIndex : n.hi-minIndex+1])
	}
	n.lo, n.hi, n.count, n.sum = maxIndex+1, minIndex-1, 0, 0
}

// addHDR adds the values of an HdrHistogram of nanoseconds (pummel's,
// 3 significant digits from 1 ns). Each of its buckets goes whole into
// the native bucket of its highest value, where HdrHistogram's own
// quantiles lie (ValueAtPercentile answers a bucket's highest value), so
// that a quantile of the native histogram brackets the result's. The sum
// takes each bucket's middle, as HdrHistogram's mean does.
func (n *nativeCounts) addHDR(h *hdrhistogram.PackedHistogram) {
	for low, count := range h.ForEachBucket {
		width := hdrWidth(low)
		n.add(nativeIndex(float64(low+width-1)/1e9), uint64(count))
		n.sum += float64(count) * float64(low+width/2) / 1e9
	}
}

// add counts c observations in bucket i (clamped into the range).
func (n *nativeCounts) add(i int32, c uint64) {
	i = min(max(i, minIndex), maxIndex)
	n.counts[i-minIndex] += c
	n.lo, n.hi = min(n.lo, i), max(n.hi, i)
	n.count += c
}

func (n *nativeCounts) addPoint(h Histogram) {
	for _, b := range h.Buckets {
		n.add(b.Index, b.Count)
	}
	n.sum += h.Sum
}

// point returns the histogram's cumulative point.
func (n *nativeCounts) point() Histogram {
	p := Histogram{Count: n.count, Sum: n.sum}
	for i := n.lo; i <= n.hi; i++ {
		if c := n.counts[i-minIndex]; c > 0 {
			p.Buckets = append(p.Buckets, Bucket{Index: i, Count: c})
		}
	}
	return p
}

// hdrWidth is how many nanoseconds the HdrHistogram bucket starting at
// low spans, for pummel's histograms (lowest value 1, 3 significant
// digits: 2,048 sub-buckets): 1 below 2,048 ns, then doubling with each
// power of two (record.NewHistogram; TestHDRWidthIsTheLibrarys).
func hdrWidth(low int64) int64 {
	return 1 << max(0, bits.Len64(uint64(low))-11)
}
