package engine

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
)

// A part of an open-loop load is held to its share of the rate: judged
// against the whole rate, every part would warn that it fell behind.
func TestAPartTargetsItsShareOfTheRate(t *testing.T) {
	tests := []struct {
		name  string
		rates []float64
	}{
		{"one stage", []float64{300}},
		{"two stages", []float64{300, 150}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{})
			var mu sync.Mutex
			var shown []float64 // the live targets the progress line was given
			res := runLoad(t, srv, Config{Rates: tt.rates, Duration: 500 * time.Millisecond, Connections: 6, Threads: 2,
				Shard: Shard{Index: 1, Count: 3}, Progress: func(p Progress) {
					mu.Lock()
					defer mu.Unlock()
					shown = append(shown, p.TargetRate)
				}})
			var want float64
			for i, rate := range tt.rates {
				want = rate / 3
				if len(tt.rates) > 1 && res.Stages[i].TargetRate != want {
					t.Errorf("stage %d targets %g/s, want %g/s", i+1, res.Stages[i].TargetRate, want)
				}
			}
			if len(tt.rates) == 1 && res.TargetRate != want {
				t.Errorf("target rate %g/s, want this part's %g/s", res.TargetRate, want)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, rate := range shown {
				if rate != 0 && !slices.Contains(tt.rates, rate*3) {
					t.Errorf("progress showed a target of %g/s, not a third of a stage's %v", rate, tt.rates)
				}
			}
			for _, w := range res.Warnings {
				if strings.Contains(w, fmt.Sprintf(" of %g requests/s", tt.rates[0])) {
					t.Errorf("warning %q judges the part against the whole rate", w)
				}
			}
		})
	}
}
