package export

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/pummel-dev/pummel/stats/record"
)

// TestNativeIndex: the bucket index of a value, as Prometheus and
// client_golang compute it at schema 8; a bucket's upper bound is in it.
func TestNativeIndex(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want int32
	}{
		{1, 0}, {1.0001, 1}, {2, 256}, {0.5, -256}, {0.001, -2551}, {0.0015, -2401}, {math.Exp2(3.0 / 256), 3},
	} {
		if got := nativeIndex(tc.v); got != tc.want {
			t.Errorf("nativeIndex(%v) = %d, want %d", tc.v, got, tc.want)
		}
	}
	if minIndex > maxIndex || nativeIndex(1e-9) != minIndex {
		t.Errorf("range %d..%d", minIndex, maxIndex)
	}
}

// TestHDRWidthIsTheLibrarys: hdrWidth says how wide pummel's
// HdrHistogram buckets are, as the library sees them.
func TestHDRWidthIsTheLibrarys(t *testing.T) {
	h := record.NewHistogram()
	for _, v := range []int64{1, 2047, 2048, 4095, 4096, 1e6, 123456789, int64(3e12)} {
		h.Reset()
		h.RecordValue(v) //nolint:errcheck // in range
		p := packed(h)
		for low := range p.ForEachBucket {
			w := hdrWidth(low)
			if !h.ValuesAreEquivalent(low, low+w-1) || h.ValuesAreEquivalent(low, low+w) || v < low || v >= low+w {
				t.Errorf("value %d: bucket from %d, width %d disagrees with the library", v, low, w)
			}
		}
	}
}

func packed(h *hdrhistogram.Histogram) *hdrhistogram.PackedHistogram {
	p := hdrhistogram.NewPacked(record.HistogramMin, record.HistogramMax, record.HistogramDigits)
	p.MergeFrom(h)
	return p
}

// TestNativeQuantileBracketsTheResults: HdrHistogram's quantiles (the
// result's p50, p99…) lie in the native bucket where the converted
// histogram's quantile of the same rank lies, so Prometheus'
// histogram_quantile, anywhere in that bucket, is within BucketWidth of
// the result's.
func TestNativeQuantileBracketsTheResults(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	h := record.NewHistogram()
	for range 200_000 {
		h.RecordValue(int64(math.Exp(rng.NormFloat64()*1.5 + 13))) //nolint:errcheck // 1 µs to seconds
	}
	n := newNativeCounts()
	n.addHDR(packed(h))
	p := n.point()
	if p.Count != uint64(h.TotalCount()) {
		t.Fatalf("count %d, want %d", p.Count, h.TotalCount())
	}
	if mean := p.Sum / float64(p.Count) * 1e9; math.Abs(mean/h.Mean()-1) > 1e-9 {
		t.Errorf("mean %v ns, HdrHistogram's %v", mean, h.Mean())
	}
	for _, q := range []float64{0.5, 0.9, 0.99, 0.999} {
		want := float64(h.ValueAtQuantile(q*100)) / 1e9
		rank := uint64(math.Ceil(q * float64(p.Count)))
		var seen uint64
		for _, b := range p.Buckets {
			if seen += b.Count; seen >= rank {
				lo, hi := math.Exp2(float64(b.Index-1)/256), math.Exp2(float64(b.Index)/256)
				if want <= lo || want > hi*(1+1e-12) {
					t.Errorf("q%v: the result's %v lies outside the native bucket (%v, %v]", q, want, lo, hi)
				}
				break
			}
		}
	}
}

// TestNativeCountsReset: a reset accumulator is empty, and adding one's
// point to another gives their sum.
func TestNativeCountsReset(t *testing.T) {
	h := record.NewHistogram()
	h.RecordValue(1_000_000) //nolint:errcheck // in range
	a, b := newNativeCounts(), newNativeCounts()
	a.addHDR(packed(h))
	b.addHDR(packed(h))
	a.addPoint(b.point())
	if p := a.point(); p.Count != 2 || len(p.Buckets) != 1 || p.Buckets[0].Count != 2 {
		t.Errorf("sum of two: %+v", p)
	}
	a.reset()
	if p := a.point(); p.Count != 0 || p.Buckets != nil || p.Sum != 0 {
		t.Errorf("after reset: %+v", p)
	}
}

// TestClassicCounts: the classic buckets count at or below each bound.
func TestClassicCounts(t *testing.T) {
	h := record.NewHistogram()
	for _, ns := range []int64{40_000, 1_000_000, 1_000_000, 70e9} {
		h.RecordValue(ns) //nolint:errcheck // in range
	}
	c := newClassicCounts()
	c.addHDR(packed(h))
	p := c.point()
	at := func(bound float64) uint64 {
		for i, b := range ClassicBounds {
			if b == bound {
				return p.Cumulative[i]
			}
		}
		t.Fatalf("no bound %v", bound)
		return 0
	}
	if p.Count != 4 || at(0.00005) != 1 || at(0.0005) != 1 || at(0.0025) != 3 || at(60) != 3 {
		t.Errorf("classic point %+v", p)
	}
}

// TestClassicPointRoundTrip: a classic point added to an empty
// accumulator gives the same point back (what a load leaves to the next
// under its labels).
func TestClassicPointRoundTrip(t *testing.T) {
	h := record.NewHistogram()
	for _, ns := range []int64{40_000, 1_000_000, 70e9} {
		h.RecordValue(ns) //nolint:errcheck // in range
	}
	a, b := newClassicCounts(), newClassicCounts()
	a.addHDR(packed(h))
	b.addPoint(a.point())
	if pa, pb := a.point(), b.point(); pa.Count != pb.Count || pa.Sum != pb.Sum || !slices.Equal(pa.Cumulative, pb.Cumulative) {
		t.Errorf("round trip %+v, want %+v", pb, pa)
	}
}
