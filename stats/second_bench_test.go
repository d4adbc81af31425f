package stats

import (
	"testing"
	"time"

	"github.com/pummel-dev/pummel/stats/record"
)

func BenchmarkNewSecond(b *testing.B) {
	h := record.NewHistogram()
	for i := range 50000 {
		h.RecordValue(int64(100*time.Microsecond) + int64(i%5000)*1000)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewSecond(1, h, Errors{}, 0); err != nil {
			b.Fatal(err)
		}
	}
}
