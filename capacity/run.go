package capacity

import (
	"context"
	"errors"
	"fmt"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/render"
	"github.com/pummel-dev/pummel/threshold"
)

// Load is one load a search asks for: closed loop when Rate is 0 (the
// probe), else open loop at Rate requests/s; Confirm marks a
// confirmation run (a longer measured time).
type Load struct {
	Rate    float64
	Confirm bool
}

// Search is one capacity search: its bounds, its SLO, and the functions
// that carry out its loads.
type Search struct {
	Settings
	// SLO is the thresholds every step must meet.
	SLO []threshold.Expr
	// Connections is how many connections every step holds.
	Connections int
	// Confirm is whether to run a confirmation at the answer.
	Confirm bool
	// Measure carries out one load; it starts with the server rested (see
	// Rest) and ends with nothing outstanding.
	Measure func(ctx context.Context, l Load) (stats.Result, error)
	// Rest gives the server a pause between loads.
	Rest func(ctx context.Context) error
	// Done, if set, is called with each step's result as it ends, its
	// verdict set: for a live display.
	Done func(step stats.Result)
}

// MaxConfirmations bounds the confirmation runs: the answer, then at
// most three rates each Precision lower.
const MaxConfirmations = 4

// ErrNoResponse is returned when the probe, or the first step, got not
// one response: the search cannot be carried out.
var ErrNoResponse = errors.New("the server did not answer one request")

// Outcome is what a search found.
type Outcome struct {
	// Capacity is the answer; its Search is left to the caller.
	Capacity stats.Capacity
	// Steps are every load run, in order: the probe, the steps, the
	// confirmation runs.
	Steps []stats.Result
	// Final is the result that stands for the search: the last
	// confirmation run, else the step at the answer, else the last step.
	Final stats.Result
	// Interrupted is true when ctx ended the search.
	Interrupted bool
}

// Run carries out the search: the probe (when Settings.To is 0), the
// steps chosen by Next, each judged by Judge, and the confirmation runs.
// It returns what it measured so far with an error when a load could not
// be carried out; ctx ending is not an error (Outcome.Interrupted).
func (s *Search) Run(ctx context.Context) (Outcome, error) {
	var out Outcome
	if s.To == 0 {
		probe, err := s.load(ctx, &out, Load{}, stats.VerdictProbe)
		if err != nil || out.Interrupted {
			return out, err
		}
		s.To = max(probe.RequestsPerS*1.5, s.From)
	}
	var tried []Tried
	byRate := map[float64]stats.Result{}
	var baseP50 float64
	for {
		rate, ok := Next(s.Settings, tried)
		if !ok {
			break
		}
		res, err := s.step(ctx, &out, Load{Rate: rate}, baseP50)
		if err != nil {
			return out, err
		}
		if out.Interrupted {
			break
		}
		v := verdictOf(res)
		if v == Pass && baseP50 == 0 && res.LatencyUncorrected != nil {
			baseP50 = res.LatencyUncorrected.P50
		}
		tried = append(tried, Tried{Rate: rate, Verdict: v})
		byRate[rate] = res
	}
	out.Capacity = s.answer(tried, byRate)
	if len(out.Steps) > 0 {
		out.Final = out.Steps[len(out.Steps)-1]
	}
	if b := BracketOf(tried); b.Pass > 0 {
		out.Final = byRate[b.Pass]
		if s.Confirm && !out.Interrupted {
			return out, s.confirm(ctx, &out, b.Pass, baseP50)
		}
	}
	return out, nil
}

// answer reads the capacity from the steps tried.
func (s *Search) answer(tried []Tried, byRate map[float64]stats.Result) stats.Capacity {
	b := BracketOf(tried)
	c := stats.Capacity{LimitedBy: stats.LimitServer}
	for _, e := range s.SLO {
		c.Thresholds = append(c.Thresholds, e.String())
	}
	if b.Pass > 0 {
		c.Rate, c.PassRate = ptr(b.Pass), ptr(b.Pass)
	}
	if b.Fail > 0 {
		c.FailRate = ptr(b.Fail)
		c.Why = byRate[b.Fail].Why
	}
	switch {
	case b.Limited:
		c.LimitedBy = stats.LimitClient
		for _, t := range tried {
			if t.Verdict == ClientLimited {
				c.Why = fmt.Sprintf("at %s req/s, %s", render.FormatRateWhole(t.Rate), byRate[t.Rate].Why)
			}
		}
	case b.Fail == 0 && b.Pass > 0:
		c.LimitedBy = stats.LimitRange
	}
	return c
}

// confirm runs the answer again; if it fails, a rate Precision lower,
// and so on, MaxConfirmations times at most.
func (s *Search) confirm(ctx context.Context, out *Outcome, rate, baseP50 float64) error {
	for range MaxConfirmations {
		res, err := s.step(ctx, out, Load{Rate: rate, Confirm: true}, baseP50)
		if err != nil || out.Interrupted {
			return err
		}
		out.Final = res
		if verdictOf(res) == Pass {
			out.Capacity.Rate, out.Capacity.Confirmed = ptr(rate), true
			return nil
		}
		if rate *= 1 - s.Precision; rate < s.From {
			break
		}
	}
	return nil
}

// step runs one open-loop load and judges it.
func (s *Search) step(ctx context.Context, out *Outcome, l Load, baseP50 float64) (stats.Result, error) {
	return s.loadJudged(ctx, out, l, func(res stats.Result) stats.StepResult {
		j := Judge(res, s.SLO, s.Connections, baseP50)
		sr := stats.StepResult{Verdict: verdictNames[j.Verdict], Passed: j.Verdict == Pass, Failed: j.Failed, Why: j.Why}
		if l.Confirm {
			sr.Verdict = stats.VerdictNotConfirmed
			if sr.Passed {
				sr.Verdict = stats.VerdictConfirmed
			}
		}
		return sr
	})
}

// load runs the probe.
func (s *Search) load(ctx context.Context, out *Outcome, l Load, verdict string) (stats.Result, error) {
	return s.loadJudged(ctx, out, l, func(stats.Result) stats.StepResult { return stats.StepResult{Verdict: verdict} })
}

// loadJudged rests the server (after the first load), runs l, judges it
// and keeps it.
func (s *Search) loadJudged(ctx context.Context, out *Outcome, l Load, judge func(stats.Result) stats.StepResult) (stats.Result, error) {
	if len(out.Steps) > 0 && s.Rest != nil {
		if err := s.Rest(ctx); err != nil {
			out.Interrupted = ctx.Err() != nil
			return stats.Result{}, ignoreCancel(ctx, err)
		}
	}
	res, err := s.Measure(ctx, l)
	if err != nil {
		out.Interrupted = ctx.Err() != nil
		return res, ignoreCancel(ctx, err)
	}
	if res.Requests == 0 && len(out.Steps) == 0 {
		return res, fmt.Errorf("%w (errors: %s)", ErrNoResponse, render.ErrorList(res.Errors))
	}
	sr := judge(res)
	if res.Interrupted || ctx.Err() != nil { // cut short: its figures judge nothing
		out.Interrupted = true
		sr = stats.StepResult{Verdict: stats.VerdictInterrupted}
	}
	res.StepResult = &sr
	out.Steps = append(out.Steps, res)
	if s.Done != nil {
		s.Done(res)
	}
	return res, nil
}

var verdictNames = map[Verdict]string{Pass: stats.VerdictPass, Fail: stats.VerdictFail, ClientLimited: stats.VerdictClientLimited}

// verdictOf reads a judged step's verdict back.
func verdictOf(res stats.Result) Verdict {
	switch {
	case res.StepResult == nil:
		return Fail
	case res.Passed:
		return Pass
	case res.Verdict == stats.VerdictClientLimited:
		return ClientLimited
	}
	return Fail
}

func ignoreCancel(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}

func ptr(f float64) *float64 { return &f }
