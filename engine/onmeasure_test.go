package engine

import (
	"sync"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
)

// TestOnMeasureIsCalledOnceWhenMeasuringBegins checks that Config.OnMeasure
// is called once, with the start of the measured phase the result reports,
// however the warm-up ends, and before Run returns.
func TestOnMeasureIsCalledOnceWhenMeasuringBegins(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"no warm-up", Config{Requests: 20}},
		{"timed warm-up", Config{Duration: 100 * time.Millisecond, Warmup: 100 * time.Millisecond}},
		{"warm-up by count", Config{Requests: 20, WarmupRequests: 30}},
		{"open loop warm-up", Config{Rates: []float64{100}, Duration: 100 * time.Millisecond, Warmup: 100 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{})
			var mu sync.Mutex
			var calls []time.Time
			tc.cfg.OnMeasure = func(at time.Time) {
				mu.Lock()
				defer mu.Unlock()
				calls = append(calls, at)
			}
			res := runLoad(t, srv, tc.cfg)
			mu.Lock()
			defer mu.Unlock()
			start, err := time.Parse(time.RFC3339Nano, res.Start)
			if err != nil {
				t.Fatal(err)
			}
			if len(calls) != 1 || !calls[0].Equal(start) {
				t.Errorf("OnMeasure calls %v, want one at the result's start %v", calls, start)
			}
		})
	}
}
