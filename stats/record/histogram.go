package record

import (
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram bounds: nanosecond resolution from 1 ns to 1 hour, 3 significant
// digits (wrk2 keeps the same precision). One such histogram takes about 264 KiB,
// which is why there is one per worker and not one per connection.
const (
	HistogramMin    = 1
	HistogramMax    = int64(time.Hour)
	HistogramDigits = 3
)

// NewHistogram returns an empty latency histogram with pummel's bounds.
func NewHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(HistogramMin, HistogramMax, HistogramDigits)
}

// A Packer makes sparse copies of histograms, the size of their populated
// buckets rather than of their whole range (a dense histogram of pummel's
// range is about 250 KB). It reuses its scratch space, so a copy allocates
// only itself. The zero value is ready to use.
type Packer struct {
	scratch *hdrhistogram.PackedHistogram
}

// Pack returns a packed copy of h.
func (k *Packer) Pack(h *hdrhistogram.Histogram) *hdrhistogram.PackedHistogram {
	if k.scratch == nil {
		k.scratch = hdrhistogram.NewPacked(HistogramMin, HistogramMax, HistogramDigits)
	}
	k.scratch.Reset()
	k.scratch.MergeFrom(h)
	return k.scratch.Clone()
}
