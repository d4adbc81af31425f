package stats_test

import (
	"testing"
	"time"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/internal/statstest"
	"github.com/pummel-dev/pummel/stats/record"
)

// TestPercentilesWithinExtremes pins that no percentile (nor the mean)
// lies outside [min, max]: HdrHistogram returns the edge of a value's
// bucket, 164.095us for a recorded 164.063us, while min and max are the
// exact extremes recorded.
func TestPercentilesWithinExtremes(t *testing.T) {
	one := stats.Merge([]*record.Recorder{statstest.Recorded(164063 * time.Nanosecond)}, time.Second, nil)
	few := stats.Merge([]*record.Recorder{statstest.Recorded(164063*time.Nanosecond, 164001*time.Nanosecond, 3*time.Millisecond+7)}, time.Second, nil)
	other := stats.Merge([]*record.Recorder{statstest.Recorded(2*time.Millisecond+3, 164063*time.Nanosecond)}, time.Second, nil)
	combined, err := stats.Combine([]stats.Result{one, other}, stats.Sequential)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		r    stats.Result
	}{
		{"one response", one},
		{"a few responses", few},
		{"combined results", combined},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := tt.r.Latency
			for _, p := range []struct {
				name string
				us   float64
			}{{"mean", l.Mean}, {"p50", l.P50}, {"p75", l.P75}, {"p90", l.P90}, {"p95", l.P95},
				{"p99", l.P99}, {"p99.9", l.P999}, {"p99.99", l.P9999}} {
				if p.us < l.Min || p.us > l.Max {
					t.Errorf("%s %.3fus outside [min %.3fus, max %.3fus]", p.name, p.us, l.Min, l.Max)
				}
			}
		})
	}
}
