package stats_test

import (
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/internal/statstest"
	"github.com/pummel-dev/pummel/stats/record"
)

func TestPackedEncodesAsDense(t *testing.T) {
	for _, tt := range histogramCases {
		t.Run(tt.name, func(t *testing.T) {
			h := histogramOf(t, tt.values)
			dense, err := stats.EncodeHistogram(h)
			if err != nil {
				t.Fatal(err)
			}
			var k record.Packer
			k.Pack(spreadHistogram()) // scratch left full by another
			p := k.Pack(h)
			k.Pack(spreadHistogram()) // and used again after: p must not share it
			packed, err := stats.EncodeHistogram(p)
			if err != nil {
				t.Fatal(err)
			}
			if packed != dense {
				t.Errorf("packed encoding %q, dense %q", packed, dense)
			}
			if p.TotalCount() != int64(len(tt.values)) {
				t.Errorf("packed holds %d of %d", p.TotalCount(), len(tt.values))
			}
			if len(tt.values) > 0 && p.GetMemorySize() >= h.ByteSize()/4 {
				t.Errorf("packed takes %d bytes, dense %d", p.GetMemorySize(), h.ByteSize())
			}
		})
	}
}

// histogramCases are sets of latencies to record, for tests of what is
// read from their histogram.
var histogramCases = []struct {
	name   string
	values []time.Duration
}{
	{"empty", nil},
	{"one value", []time.Duration{250 * time.Microsecond}},
	{"smallest and largest", []time.Duration{record.HistogramMin, time.Duration(record.HistogramMax)}},
	{"spread", append(statstest.Spread(50, 20000, 3*time.Microsecond), statstest.Spread(90000, 50, 41*time.Millisecond)...)},
	{"two far apart", []time.Duration{time.Microsecond, 40 * time.Millisecond}},
	{"identical", statstest.Spread(5, 100, 0)},
	{"long tail", append(statstest.Spread(200_000, 5000, 7*time.Microsecond), 2*time.Second, time.Minute)},
	{"small integers", []time.Duration{1, 2, 3, 3, 4, 9, 2000, 2049, 2050, 4100}},
}

// histogramOf returns a histogram of values.
func histogramOf(t *testing.T, values []time.Duration) *hdrhistogram.Histogram {
	t.Helper()
	h := record.NewHistogram()
	for _, v := range values {
		if err := h.RecordValue(int64(v)); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func spreadHistogram() *hdrhistogram.Histogram {
	h := record.NewHistogram()
	for _, v := range statstest.Spread(50, 50000, time.Microsecond) {
		h.RecordValue(int64(v)) //nolint:errcheck // in range
	}
	return h
}

func BenchmarkPack(b *testing.B) {
	h := spreadHistogram()
	b.ReportAllocs()
	var k record.Packer
	var p *hdrhistogram.PackedHistogram
	for b.Loop() {
		p = k.Pack(h)
	}
	b.ReportMetric(float64(p.GetMemorySize()), "packed-bytes")
}
