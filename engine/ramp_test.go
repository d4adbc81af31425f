package engine

import (
	"math"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/stats"
)

// A ramp's request k is due when the rate's integral reaches k: for
// 50..150/s over 2 s, 50t + 25t² = k.
func TestRampSchedule(t *testing.T) {
	s := newSchedule(0, 0, []float64{150, 150, 50, 100}, []float64{50, 150, 150, 0}, 2*time.Second)
	tests := []struct {
		i     int64
		due   time.Duration
		phase int
	}{
		{0, 0, 1},
		{24, 400 * time.Millisecond, 1}, // 50·0.4 + 25·0.16 = 24
		{75, time.Second, 1},            // 50 + 25: the first second's 75
		{200, 2 * time.Second, 2},       // the ramp's 200 = (50+150)/2 × 2 s, then a hold at 150/s
		{200 + 150, 3 * time.Second, 2},
		{500, 4 * time.Second, 3},                           // 150..50: 150t − 25t² = k
		{500 + 125, 5 * time.Second, 3},                     // 150 − 25
		{700, 6 * time.Second, 4},                           // 0..100: 25t² = k
		{700 + 25, 7 * time.Second, 4},                      // 25
		{700 + 49, 7*time.Second + 400*time.Millisecond, 4}, // 25 · 1.96
	}
	for _, tt := range tests {
		due, phase, ok := s.at(tt.i)
		if due != tt.due || phase != tt.phase || !ok {
			t.Errorf("at(%d) = %v, %d, %v; want %v, %d, true", tt.i, due, phase, ok, tt.due, tt.phase)
		}
	}
	if _, _, ok := s.at(800); ok || s.Total != 200+300+200+100 {
		t.Errorf("total %d (at(800) ok: %v), want 800", s.Total, ok)
	}
}

// A ramp stage holds its rate's integral, (from+to)/2 × length, rounded
// down; its sends are due in order, each within the stage, and each of
// its seconds holds that second's integral, to the request.
func TestRampCountsAndOrder(t *testing.T) {
	tests := []struct {
		from, to float64
		length   time.Duration
		want     int64
	}{
		{50, 150, 2 * time.Second, 200},
		{100, 2000, 10 * time.Second, 10500},
		{2000, 100, 10 * time.Second, 10500},
		{0, 1000, 3 * time.Second, 1500},
		{0.5, 3, 7 * time.Second, 12}, // 12.25
		{1, 2, 3 * time.Second, 4},    // 4.5
	}
	for _, tt := range tests {
		s := newSchedule(0, 0, []float64{tt.to}, []float64{tt.from}, tt.length)
		if s.Total != tt.want {
			t.Errorf("%g..%g over %v: %d requests, want %d", tt.from, tt.to, tt.length, s.Total, tt.want)
		}
		perSecond := make([]int64, int(tt.length.Seconds()))
		prev := time.Duration(-1)
		for i := range s.Total {
			due, _, _ := s.at(i)
			if due <= prev || due >= tt.length {
				t.Fatalf("%g..%g: request %d due at %v, after %v, stage end %v", tt.from, tt.to, i, due, prev, tt.length)
			}
			prev = due
			perSecond[due/time.Second]++
		}
		slope := (tt.to - tt.from) / tt.length.Seconds()
		for sec, n := range perSecond {
			want := tt.from + slope*(float64(sec)+0.5) // the integral over the second
			if math.Abs(float64(n)-want) > 1 {
				t.Errorf("%g..%g: second %d holds %d requests, want %.1f", tt.from, tt.to, sec, n, want)
			}
		}
	}
}

// On a ramp, the progress line's target is the rate reached, the result's
// the mean, each this part's share; the warm-up runs at the ramp's start.
func TestRampTargets(t *testing.T) {
	cfg := Config{Rates: []float64{2000, 2000}, RampFrom: []float64{100, 2000}, Duration: 10 * time.Second, Shard: Shard{Index: 1, Count: 2}}
	r := &Load{Config: &cfg}
	tests := []struct {
		name      string
		got, want float64
	}{
		{"rate 1 s into the ramp", r.rateAt(0, time.Second), 145},     // (100 + 190) / 2
		{"rate at the ramp's end", r.rateAt(0, 10*time.Second), 1000}, // 2000 / 2
		{"rate in the hold", r.rateAt(1, 3*time.Second), 1000},
		{"ramp's target", r.targetRate(0), 525}, // (100 + 2000) / 2 / 2
		{"warm-up rate", cfg.warmupRate(), 100},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %g, want %g", tt.name, tt.got, tt.want)
		}
	}
}

// TestStageNameIsAsTheResultNamesIt: a stage is named in errors and
// warnings as -R gives it and as the result's ramp prints.
func TestStageNameIsAsTheResultNamesIt(t *testing.T) {
	c := Config{Rates: []float64{2000, 250, 0.5}, RampFrom: []float64{100, 250, 0}}
	for i, want := range []string{"100..2000", "250", "0..0.5"} {
		if got := c.stageName(i); got != want {
			t.Errorf("stageName(%d) = %q, want %q", i, got, want)
		}
	}
	if got, want := c.stageName(0), (stats.Ramp{From: 100, To: 2000}).String(); got != want {
		t.Errorf("stageName(0) = %q, the result's ramp %q", got, want)
	}
}
