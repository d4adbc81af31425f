package capacity

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
	"github.com/pummel-dev/pummel/threshold"
)

func TestDecide(t *testing.T) {
	for _, tc := range []struct {
		name       string
		against, n int64
		allowed    float64
		want       decision
	}{
		// The p99 of 80 samples is the second-slowest: one slow response decides nothing.
		{"one of 80 against p99", 1, 80, 0.01, undecided},
		{"none of 80 against p99: too few to pass", 0, 80, 0.01, undecided},
		{"two of 80 against p99", 2, 80, 0.01, undecided},
		{"five of 80 against p99", 5, 80, 0.01, breaks},
		{"none of 299 against p99", 0, 299, 0.01, holds},
		{"none of 298 against p99", 0, 298, 0.01, undecided},
		{"one of 40 against p99", 1, 40, 0.01, undecided},
		{"0.5% of 10,000 against p99", 50, 10000, 0.01, holds},
		{"1% of 10,000 against p99", 100, 10000, 0.01, undecided},
		{"2.1% of 10,240 against p99", 214, 10240, 0.01, breaks},
		{"1.2% of a million against p99", 12000, 1_000_000, 0.01, breaks},
		{"0.9% of a million against p99", 9000, 1_000_000, 0.01, holds},
		{"no error of 3,000 against 0.1%", 0, 3000, 0.001, holds},
		{"one error of 3,000 against 0.1%", 1, 3000, 0.001, undecided},
		{"nothing to judge", 0, 0, 0.01, undecided},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := decide(threshold.Evidence{Against: tc.against, Outcomes: tc.n, Allowed: tc.allowed}); got != tc.want {
				t.Errorf("decide(%d of %d, %g) = %d, want %d", tc.against, tc.n, tc.allowed, got, tc.want)
			}
		})
	}
}

func TestSamplesToPass(t *testing.T) {
	for _, tc := range []struct {
		share float64
		want  int64
	}{{0.01, 299}, {0.001, 2995}, {0.5, 5}, {0, 0}} {
		if got := samplesToPass(tc.share); got != tc.want {
			t.Errorf("samplesToPass(%g) = %d, want %d", tc.share, got, tc.want)
		}
	}
}

// measured is an open-loop result at rate of n responses, slow of them
// taking slowMs and the rest fastMs, with its histogram, as the engine
// records one.
func measured(t *testing.T, rate float64, n, slow int64, fastMs, slowMs float64) stats.Result {
	t.Helper()
	h := record.NewHistogram()
	for i := range n {
		v := fastMs
		if i < slow {
			v = slowMs
		}
		if err := h.RecordValue(int64(v * 1e6)); err != nil {
			t.Fatal(err)
		}
	}
	enc, err := stats.EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	lat := stats.Summarize(h)
	own := *lat
	d := float64(n) / rate
	return stats.Result{Requests: n, DurationS: d, AttackS: d, RequestsPerS: rate, TargetRate: rate, AchievedRate: rate,
		Latency: lat, LatencyHistogram: enc, LatencyUncorrected: &own, LatencyUncorrectedHistogram: enc,
		Client: stats.ClientUsage{CPUs: 2, CPUPercent: 10}}
}

// TestOneOutlierIsNoFail: a step of 40 responses, one of them 42 ms, or
// of 80 with two, against p99<5ms: its p99 is that outlier, over the
// bound, but so few slow responses cannot tell a 1% share from more: the
// step is not decided, and certainly not failed.
func TestOneOutlierIsNoFail(t *testing.T) {
	for _, tc := range []struct{ n, slow int64 }{{40, 1}, {80, 2}, {80, 1}} {
		res := measured(t, 20, tc.n, tc.slow, 1, 42)
		if tc.n == 40 && res.Latency.P99 < 5e3 {
			t.Fatalf("p99 %g µs: the outlier should be the p99 of %d", res.Latency.P99, tc.n)
		}
		j := Judge(res, []threshold.Expr{mustParse(t, "p99<5ms")}, 64, 1e3)
		if j.Verdict != Undecided || j.Samples != tc.n || !strings.Contains(j.Why, fmt.Sprintf("%d of %d", tc.slow, tc.n)) {
			t.Errorf("%d of %d: Judge = %v (%q) on %d samples, want undecided on %d", tc.slow, tc.n, j.Verdict, j.Why, j.Samples, tc.n)
		}
	}
	// The same share, confidently over: many slow responses among many.
	j := Judge(measured(t, 2000, 8000, 400, 1, 42), []threshold.Expr{mustParse(t, "p99<5ms")}, 64, 1e3)
	if j.Verdict != Fail || !strings.Contains(j.Why, "400 of 8,000") {
		t.Errorf("Judge = %v (%q), want a fail naming 400 of 8,000", j.Verdict, j.Why)
	}
	// errors<1% judged likewise: 1 error among 80 outcomes decides nothing.
	res := measured(t, 20, 79, 0, 1, 1)
	res.Errors.Timeout = 1
	if j := Judge(res, []threshold.Expr{mustParse(t, "errors<1%")}, 64, 1e3); j.Verdict != Undecided || j.Samples != 80 {
		t.Errorf("Judge = %v on %d, want undecided on 80", j.Verdict, j.Samples)
	}
}

// parts is a Measure that hands out results in turn and records loads.
type parts struct {
	results []stats.Result
	loads   []Load
}

func (p *parts) measure(_ context.Context, l Load) (stats.Result, error) {
	p.loads = append(p.loads, l)
	res := p.results[0]
	if len(p.results) > 1 {
		p.results = p.results[1:]
	}
	return res, nil
}

// TestStepMeasuresOnUntilItTells: a step whose evidence does not tell
// is measured on at its rate, without warm-up or rest, its parts judged
// as one; one that never tells is inconclusive after MaxStretch steps.
func TestStepMeasuresOnUntilItTells(t *testing.T) {
	slo := []threshold.Expr{mustParse(t, "p99<5ms")}
	for _, tc := range []struct {
		name        string
		results     []stats.Result
		wantVerdict string
		wantParts   int
		wantSamples int64
	}{
		// 1 of 1,000 slow: undecided; 0 of 4,000 more: 1 of 5,000 holds.
		{"tells once measured on", []stats.Result{measured(t, 1000, 1000, 12, 1, 42), measured(t, 1000, 1000, 0, 1, 1)}, stats.VerdictPass, 2, 2000},
		{"never tells", []stats.Result{measured(t, 1000, 1000, 10, 1, 42)}, stats.VerdictInconclusive, MaxStretch, 4000},
		{"tells at once", []stats.Result{measured(t, 1000, 1000, 0, 1, 42)}, stats.VerdictPass, 1, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &parts{results: tc.results}
			rested := 0
			s := Search{Settings: Settings{From: 1000, To: 1000, Precision: 0.02, MaxSteps: 1}, SLO: slo, Connections: 64, Step: time.Second,
				Measure: p.measure, Rest: func(context.Context) error { rested++; return nil }}
			out, err := s.Run(context.Background())
			if err != nil || len(out.Steps) != 1 {
				t.Fatalf("Run = %d steps, %v", len(out.Steps), err)
			}
			st := out.Steps[0]
			if st.Verdict != tc.wantVerdict || len(p.loads) != tc.wantParts || st.Samples != tc.wantSamples || st.Requests != tc.wantSamples || st.Extensions != tc.wantParts-1 {
				t.Errorf("step %s on %d samples (%d requests, %d extensions) over %d loads; want %s on %d over %d",
					st.Verdict, st.Samples, st.Requests, st.Extensions, len(p.loads), tc.wantVerdict, tc.wantSamples, tc.wantParts)
			}
			for i, l := range p.loads {
				if l.Continue != (i > 0) || l.Rate != 1000 {
					t.Errorf("load %d: %+v; want the step's rate, continued after the first", i, l)
				}
			}
			if rested != 0 {
				t.Errorf("rested %d times within one step", rested)
			}
		})
	}
}

// TestStepTimeHoldsTheSamplesItNeeds: a step at a low rate is measured
// long enough to hold the samples its thresholds need, up to MaxStretch
// steps.
func TestStepTimeHoldsTheSamplesItNeeds(t *testing.T) {
	s := Search{SLO: []threshold.Expr{mustParse(t, "p99<5ms"), mustParse(t, "errors<0.1%")}, Step: 2 * time.Second}
	for _, tc := range []struct {
		rate float64
		want time.Duration
	}{{10000, 2 * time.Second}, {1000, 3700 * time.Millisecond}, {20, 8 * time.Second}} {
		if got := s.stepTime(tc.rate, s.Step, MaxStretch*s.Step); got != tc.want {
			t.Errorf("stepTime(%g) = %v, want %v", tc.rate, got, tc.want)
		}
	}
}
