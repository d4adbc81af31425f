package capacity

import (
	"math"
	"testing"

	"github.com/pummel-dev/pummel/stats"
)

// server is a server with a known capacity: every rate up to it passes.
func server(capacity float64) func(float64) Verdict {
	return func(rate float64) Verdict {
		if rate <= capacity {
			return Pass
		}
		return Fail
	}
}

// search runs Next against judge until it ends.
func search(s Settings, judge func(float64) Verdict) []Tried {
	var tried []Tried
	for {
		rate, ok := Next(s, tried)
		if !ok {
			return tried
		}
		tried = append(tried, Tried{rate, judge(rate)})
	}
}

func TestSearchFindsAKnownCapacity(t *testing.T) {
	for _, tc := range []struct {
		name      string
		s         Settings
		capacity  float64
		wantPass  float64 // the highest pass is within precision below capacity, or this exactly
		wantSteps int     // at most
	}{
		{"500/s from 10", Settings{From: 10, To: 1e6, Precision: 0.02, MaxSteps: 20}, 500, 0, 13},
		{"11,400/s from 10", Settings{From: 10, To: 50000, Precision: 0.02, MaxSteps: 20}, 11400, 0, 18},
		{"capacity at the lowest rate", Settings{From: 100, To: 1000, Precision: 0.02, MaxSteps: 20}, 100, 0, 9},
		{"whole range passes", Settings{From: 10, To: 1000, Precision: 0.02, MaxSteps: 20}, 5000, 1000, 8},
		{"precision 10%", Settings{From: 10, To: 1e6, Precision: 0.1, MaxSteps: 20}, 777, 0, 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tried := search(tc.s, server(tc.capacity))
			b := BracketOf(tried)
			if len(tried) > tc.wantSteps {
				t.Errorf("%d steps, want at most %d: %v", len(tried), tc.wantSteps, tried)
			}
			if tc.wantPass != 0 {
				if b.Pass != tc.wantPass || b.Fail != 0 {
					t.Errorf("bracket %+v, want pass %g and no fail", b, tc.wantPass)
				}
				return
			}
			if b.Pass > tc.capacity || b.Pass < tc.capacity/(1+tc.s.Precision) {
				t.Errorf("highest pass %g, want within %g%% below %g (steps %v)", b.Pass, 100*tc.s.Precision, tc.capacity, tried)
			}
			if b.Fail > b.Pass*(1+tc.s.Precision) {
				t.Errorf("bracket %+v wider than the precision", b)
			}
			for _, st := range tried {
				if st.Rate < tc.s.From || st.Rate > tc.s.To {
					t.Errorf("rate %g outside [%g, %g]", st.Rate, tc.s.From, tc.s.To)
				}
			}
		})
	}
}

func TestNextEnds(t *testing.T) {
	s := Settings{From: 10, To: 1000, Precision: 0.02, MaxSteps: 4}
	for _, tc := range []struct {
		name     string
		tried    []Tried
		wantRate float64 // 0: the search ends
	}{
		{"first step", nil, 10},
		{"climb doubles", []Tried{{10, Pass}, {20, Pass}}, 40},
		{"climb stops at To", []Tried{{10, Pass}, {20, Pass}, {640, Pass}}, 1000},
		{"lowest rate failed", []Tried{{10, Fail}}, 0},
		{"client-limited ends", []Tried{{10, Pass}, {20, ClientLimited}}, 0},
		{"client-limited first: down by four", []Tried{{800, ClientLimited}}, 200},
		{"max steps", []Tried{{10, Pass}, {20, Pass}, {40, Pass}, {80, Pass}}, 0},
		{"bisects", []Tried{{10, Pass}, {20, Fail}}, 15},
		{"within precision", []Tried{{100, Pass}, {200, Fail}, {101.5, Fail}}, 0},
		{"a pass above a fail is noise", []Tried{{10, Pass}, {20, Fail}, {30, Pass}}, 15},
		{"an inconclusive step does not stop the climb", []Tried{{10, Pass}, {20, Inconclusive}}, 40},
		{"a climb of inconclusive steps", []Tried{{10, Inconclusive}, {20, Inconclusive}}, 40},
		{"an inconclusive step bounds the bisection", []Tried{{10, Pass}, {40, Fail}, {20, Inconclusive}}, 15},
		{"a fail below an inconclusive step is the bound", []Tried{{10, Pass}, {40, Inconclusive}, {20, Fail}}, 15},
		{"nothing passed: down by four", []Tried{{800, Fail}}, 200},
		{"nothing passed: down to From at the lowest", []Tried{{800, Fail}, {200, Fail}, {50, Inconclusive}}, 12.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rate, ok := Next(s, tc.tried)
			if ok != (tc.wantRate != 0) || math.Abs(rate-tc.wantRate) > 1e-9 {
				t.Errorf("Next = %g, %v; want %g", rate, ok, tc.wantRate)
			}
		})
	}
}

// TestNextStartsAtStart: the first rate is Start (From when it is lower),
// and a search that starts high finds a capacity below its start.
func TestNextStartsAtStart(t *testing.T) {
	s := Settings{From: 10, Start: 8000, To: 48000, Precision: 0.02, MaxSteps: 20}
	if rate, _ := Next(s, nil); rate != 8000 {
		t.Errorf("first rate %g, want Start 8000", rate)
	}
	tried := search(s, server(700))
	if b := BracketOf(tried); b.Pass > 700 || b.Pass < 700/1.02 || b.Fail > b.Pass*1.02 {
		t.Errorf("bracket %+v, want within 2%% below 700 (steps %v)", b, tried)
	}
	if s.Start = 5; func() float64 { r, _ := Next(s, nil); return r }() != 10 {
		t.Error("a Start below From starts at From")
	}
}

// TestEnding names what ended a search.
func TestEnding(t *testing.T) {
	s := Settings{From: 10, To: 1000, Precision: 0.02, MaxSteps: 4}
	for _, tc := range []struct {
		name  string
		tried []Tried
		want  string
	}{
		{"precision", []Tried{{100, Pass}, {101, Fail}}, stats.EndedPrecision},
		{"max steps", []Tried{{10, Pass}, {20, Pass}, {40, Fail}, {30, Pass}}, stats.EndedMaxSteps},
		{"to", []Tried{{500, Pass}, {1000, Pass}}, stats.EndedTo},
		{"client", []Tried{{10, Pass}, {20, ClientLimited}}, stats.EndedClient},
		{"from", []Tried{{40, Fail}, {10, Fail}}, stats.EndedFrom},
		{"inconclusive at the top", []Tried{{100, Pass}, {102, Fail}, {101, Inconclusive}}, stats.EndedPrecision},
		{"inconclusive up to To", []Tried{{500, Inconclusive}, {1000, Inconclusive}}, stats.EndedTo},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Ending(s, tc.tried); got != tc.want {
				t.Errorf("Ending = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRound3(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{{12345, 12300}, {15, 15}, {0.12345, 0.123}, {999.6, 1000}, {19.4375, 19.4}} {
		if got := round3(tc.in); got != tc.want {
			t.Errorf("round3(%g) = %g, want %g", tc.in, got, tc.want)
		}
	}
}
