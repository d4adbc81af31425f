package capacity

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/threshold"
)

// model is a server measured without one: closed loop it carries
// capacity req/s; open loop, a rate up to it answers in 1 ms, a rate above
// it in 200 ms; the client's CPU saturates above clientMax (0: never).
type model struct {
	capacity, clientMax float64
	confirmFails        int             // how many confirmation runs fail
	longRun             float64         // 0, or the rate the longer confirmation runs carry
	hiccups             map[float64]int // how many times a rate under the capacity fails first
	loads               []Load
}

func (m *model) measure(_ context.Context, l Load) (stats.Result, error) {
	m.loads = append(m.loads, l)
	if l.Rate == 0 {
		return stats.Result{Requests: 1000, RequestsPerS: m.capacity, Latency: &stats.Latency{P50: 1e3, P99: 2e3}}, nil
	}
	res := step(l.Rate, 1e3, 1e3, 1e3, 20)
	res.TargetRate = l.Rate
	hiccup := m.hiccups[l.Rate] > 0
	if hiccup {
		m.hiccups[l.Rate]--
	}
	if l.Rate > m.capacity || (l.Confirm && m.confirmFails > 0) || (l.Confirm && m.longRun > 0 && l.Rate > m.longRun) || hiccup {
		if l.Confirm {
			m.confirmFails--
		}
		res.Latency.P99, res.LatencyUncorrected.P99, res.LatencyUncorrected.P50 = 200e3, 200e3, 100e3
	}
	if m.clientMax > 0 && l.Rate > m.clientMax {
		res.AchievedRate, res.Client.CPUPercent = m.clientMax, 99
		res.Latency.P99 = 300e3
	}
	return res, nil
}

func TestRunSearch(t *testing.T) {
	slo := []threshold.Expr{mustParse(t, "p99<50ms")}
	for _, tc := range []struct {
		name      string
		m         model
		to        float64
		wantRate  float64 // 0: none
		confirmed bool
		limitedBy string
		wantErr   error
	}{
		{"server limit", model{capacity: 500}, 0, 500, true, stats.LimitServer, nil},
		{"range", model{capacity: 500}, 300, 300, true, stats.LimitRange, nil},
		{"client limit", model{capacity: 5000, clientMax: 1000}, 0, 312, true, stats.LimitClient, nil},
		// 500 fails its confirmation, 490 passes, and the gap is halved once.
		{"confirmation steps down", model{capacity: 500, confirmFails: 1}, 0, 494.97, true, stats.LimitServer, nil},
		{"confirmation fails", model{capacity: 500, confirmFails: 9}, 0, 500, false, stats.LimitServer, nil},
		// The steps pass up to 500, the longer runs only up to 350: 500,
		// 490, 470.4, 432.8 and 363.5 fail their confirmations (each 2%,
		// 4%, 8%, 16% under the last), 247.2 (32% under) passes, and the
		// gap is halved in the two runs left: 299.8, then 330.1, the
		// answer, under 350 and confirmed.
		{"a longer run carries less", model{capacity: 500, longRun: 350}, 0, 330.11, true, stats.LimitServer, nil},
		{"nothing passes", model{capacity: 5}, 0, 0, false, stats.LimitServer, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.m
			s := Search{Settings: Settings{From: 10, To: tc.to, Precision: 0.02, MaxSteps: 20}, SLO: slo, Connections: 64, Step: time.Second, ConfirmTime: time.Second, Measure: m.measure}
			var done int
			s.Done = func(stats.Result) { done++ }
			out, err := s.Run(context.Background())
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Run: %v", err)
			}
			c := out.Capacity
			if (c.Rate == nil) != (tc.wantRate == 0) || (c.Rate != nil && math.Abs(*c.Rate-tc.wantRate) > 0.01) || c.Confirmed != tc.confirmed || c.LimitedBy != tc.limitedBy {
				t.Errorf("capacity %v confirmed %v limited by %s; want %g, %v, %s", deref(c.Rate), c.Confirmed, c.LimitedBy, tc.wantRate, tc.confirmed, tc.limitedBy)
			}
			if done != len(out.Steps) || len(out.Steps) != len(m.loads) {
				t.Errorf("%d steps reported, %d kept, %d run", done, len(out.Steps), len(m.loads))
			}
			if (tc.to == 0) != (m.loads[0].Rate == 0) || (tc.to == 0 && out.Steps[0].Verdict != stats.VerdictProbe) {
				t.Errorf("first load %+v (%s): the probe runs first exactly when --to is not given", m.loads[0], out.Steps[0].Verdict)
			}
			for _, st := range out.Steps {
				if st.TargetRate > 1.05*tc.m.capacity && st.Passed {
					t.Errorf("step at %g passed above the capacity %g", st.TargetRate, tc.m.capacity)
				}
			}
		})
	}
}

// TestRunRetestsAFailThatWouldCapTheSearch: a step that fails below
// every failure so far is run again, and one burst of noise (a rate
// under the capacity failing once) does not cap the search; a rate that
// fails twice does.
func TestRunRetestsAFailThatWouldCapTheSearch(t *testing.T) {
	m := &model{capacity: 500, hiccups: map[float64]int{250: 1}}
	s := Search{Settings: Settings{From: 10, Precision: 0.02, MaxSteps: 20}, SLO: []threshold.Expr{mustParse(t, "p99<50ms")}, Connections: 64,
		Step: time.Second, Measure: m.measure}
	out, err := s.Run(context.Background())
	if err != nil || out.Capacity.Rate == nil || *out.Capacity.Rate < 490 || *out.Capacity.Rate > 500 {
		t.Fatalf("Run = capacity %v, %v; want within 2%% below 500", deref(out.Capacity.Rate), err)
	}
	var at250 []string
	retests := 0
	for _, st := range out.Steps {
		if st.TargetRate == 250 {
			at250 = append(at250, st.Verdict)
		}
		if st.Retest {
			retests++
			if st.TargetRate <= 500 && st.TargetRate != 250 {
				t.Errorf("a retest at %g, under the capacity, after no fail there", st.TargetRate)
			}
		}
	}
	if len(at250) != 2 || at250[0] != stats.VerdictFail || at250[1] != stats.VerdictPass || !out.Steps[3].Retest {
		t.Errorf("steps at 250: %v; want a fail, then a pass when run again", at250)
	}
	if out.Start != 125 || m.loads[1].Rate != 125 {
		t.Errorf("started at %g, want a quarter of the probe's 500", out.Start)
	}
	if retests < 2 {
		t.Errorf("%d retests: every fail that lowered the bound should have run again", retests)
	}
}

func TestRunStopsWhenTheServerNeverAnswers(t *testing.T) {
	s := Search{Settings: Settings{From: 10, Precision: 0.02, MaxSteps: 20}, Connections: 1,
		Measure: func(context.Context, Load) (stats.Result, error) {
			return stats.Result{Errors: stats.Errors{Connect: 3}}, nil
		}}
	if _, err := s.Run(context.Background()); !errors.Is(err, ErrNoResponse) {
		t.Errorf("Run = %v, want %v", err, ErrNoResponse)
	}
}

func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	m := &model{capacity: 500}
	s := Search{Settings: Settings{From: 10, To: 1000, Precision: 0.02, MaxSteps: 20}, SLO: []threshold.Expr{mustParse(t, "p99<50ms")}, Connections: 64,
		Measure: func(ctx context.Context, l Load) (stats.Result, error) {
			if len(m.loads) == 3 {
				cancel()
				return stats.Result{Interrupted: true}, context.Canceled
			}
			return m.measure(ctx, l)
		}}
	out, err := s.Run(ctx)
	if err != nil || !out.Interrupted || len(out.Steps) != 3 || out.Capacity.Rate == nil {
		t.Errorf("Run = %d steps, interrupted %v, %v; want 3 steps, interrupted", len(out.Steps), out.Interrupted, err)
	}
}

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

// TestRunKeepsTheStepsWhenALoadFails: a server gone mid-search ends it
// with the load's error, and the steps measured before it are kept with
// the answer they allow.
func TestRunKeepsTheStepsWhenALoadFails(t *testing.T) {
	gone := errors.New("cannot connect to the target")
	m := &model{capacity: 500}
	s := Search{Settings: Settings{From: 10, To: 1000, Precision: 0.02, MaxSteps: 20}, SLO: []threshold.Expr{mustParse(t, "p99<50ms")}, Connections: 64, Step: time.Second, ConfirmTime: time.Second,
		Measure: func(ctx context.Context, l Load) (stats.Result, error) {
			if len(m.loads) == 3 {
				return stats.Result{}, gone
			}
			return m.measure(ctx, l)
		}}
	out, err := s.Run(context.Background())
	if !errors.Is(err, gone) || len(out.Steps) != 3 || out.Capacity.Rate == nil || *out.Capacity.Rate != 40 || out.To != 1000 {
		t.Errorf("Run = %d steps, capacity %v, to %g, %v; want 3 steps, 40, 1000 and the load's error", len(out.Steps), deref(out.Capacity.Rate), out.To, err)
	}
}

// TestRunInterruptedInTheFirstStep: an interrupt before the first step
// answered anything is the user's, not a server that never answers.
func TestRunInterruptedInTheFirstStep(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := Search{Settings: Settings{From: 10, Precision: 0.02, MaxSteps: 20}, Connections: 1,
		Measure: func(context.Context, Load) (stats.Result, error) {
			cancel()
			return stats.Result{Interrupted: true}, nil
		}}
	out, err := s.Run(ctx)
	if errors.Is(err, ErrNoResponse) || !out.Interrupted {
		t.Errorf("Run = interrupted %v, %v; want interrupted, and no word of a server that never answers", out.Interrupted, err)
	}
}

// TestRunStopsWhenTheServerExits: a watched server that exits during a
// step ends the search with an error naming the step, not a failed step
// judged by its errors; the steps before it are kept.
func TestRunStopsWhenTheServerExits(t *testing.T) {
	m := &model{capacity: 500}
	s := Search{Settings: Settings{From: 10, To: 1000, Precision: 0.02, MaxSteps: 20}, SLO: []threshold.Expr{mustParse(t, "p99<50ms")}, Connections: 64,
		Measure: func(ctx context.Context, l Load) (stats.Result, error) {
			res, err := m.measure(ctx, l)
			if len(m.loads) == 3 {
				res.Server = []stats.ServerUsage{{PID: 42, ExitedDuringLoad: true}}
			}
			return res, err
		}}
	out, err := s.Run(context.Background())
	if !errors.Is(err, ErrServerExited) || !strings.Contains(err.Error(), "pid 42") || len(out.Steps) != 2 {
		t.Errorf("Run = %d steps, %v; want 2 steps and the server's exit named", len(out.Steps), err)
	}
}
