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
	tests := []struct {
		name   string
		values []time.Duration
	}{
		{"empty", nil},
		{"one value", []time.Duration{250 * time.Microsecond}},
		{"smallest and largest", []time.Duration{record.HistogramMin, time.Duration(record.HistogramMax)}},
		{"spread", append(statstest.Spread(50, 20000, 3*time.Microsecond), statstest.Spread(90000, 50, 41*time.Millisecond)...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := record.NewHistogram()
			for _, v := range tt.values {
				if err := h.RecordValue(int64(v)); err != nil {
					t.Fatal(err)
				}
			}
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
