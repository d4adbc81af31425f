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
	// Connections is how many requests every step can keep in flight: its
	// connections, times their streams with HTTP/2.
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
	// To is the highest rate the search could try: Settings.To, or the
	// probe's throughput × 1.5.
	To float64
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
// When a load cannot be carried out it returns the error with what it
// measured so far, the answer read from the steps before it; ctx ending
// is not an error (Outcome.Interrupted).
func (s *Search) Run(ctx context.Context) (Outcome, error) {
	out := Outcome{To: s.To}
	if out.To == 0 {
		probe, _, err := s.load(ctx, &out, Load{}, nil)
		if err != nil || out.Interrupted {
			return out, err
		}
		out.To = max(probe.RequestsPerS*1.5, s.From)
	}
	settings := s.Settings
	settings.To = out.To
	var tried []Tried
	byRate := map[float64]stats.Result{}
	var baseP50 float64
	var err error
	for {
		rate, ok := Next(settings, tried)
		if !ok {
			break
		}
		var res stats.Result
		var v Verdict
		if res, v, err = s.step(ctx, &out, Load{Rate: rate}, baseP50); err != nil || out.Interrupted {
			break
		}
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
	b := BracketOf(tried)
	if b.Pass > 0 {
		out.Final = byRate[b.Pass]
	}
	if b.Pass > 0 && s.Confirm && err == nil && !out.Interrupted {
		err = s.confirm(ctx, &out, b.Pass, baseP50)
	}
	return out, err
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
		res, v, err := s.step(ctx, out, Load{Rate: rate, Confirm: true}, baseP50)
		if err != nil || out.Interrupted {
			return err
		}
		out.Final = res
		if v == Pass {
			out.Capacity.Rate, out.Capacity.Confirmed = ptr(rate), true
			return nil
		}
		if rate *= 1 - s.Precision; rate < s.From {
			break
		}
	}
	return nil
}

// ErrServerExited ends a search whose watched server exited during a
// step: what followed measured no server, and is no step of the search.
var ErrServerExited = errors.New("the server exited during the step")

// exited reports a watched server that exited during res's load.
func exited(res stats.Result) error {
	for _, s := range res.Server {
		if s.ExitedDuringLoad {
			return fmt.Errorf("%w at %s req/s (pid %d)", ErrServerExited, render.FormatRateWhole(res.TargetRate), s.PID)
		}
	}
	return nil
}

// step runs one open-loop load and judges it.
func (s *Search) step(ctx context.Context, out *Outcome, l Load, baseP50 float64) (stats.Result, Verdict, error) {
	return s.load(ctx, out, l, func(res stats.Result) Judgement { return Judge(res, s.SLO, s.Connections, baseP50) })
}

// load rests the server (after the first load), runs l, judges it (a
// nil judge: the probe, which is not judged) and keeps it, reporting it
// to Done.
func (s *Search) load(ctx context.Context, out *Outcome, l Load, judge func(stats.Result) Judgement) (stats.Result, Verdict, error) {
	if len(out.Steps) > 0 && s.Rest != nil {
		if err := s.Rest(ctx); err != nil {
			out.Interrupted = ctx.Err() != nil
			return stats.Result{}, Fail, ignoreCancel(ctx, err)
		}
	}
	res, err := s.Measure(ctx, l)
	if err == nil {
		err = exited(res)
	}
	if err != nil {
		out.Interrupted = ctx.Err() != nil
		return res, Fail, ignoreCancel(ctx, err)
	}
	if res.Requests == 0 && len(out.Steps) == 0 && !res.Interrupted && ctx.Err() == nil { // an interrupt is no server's silence
		return res, Fail, fmt.Errorf("%w (errors: %s)", ErrNoResponse, render.ErrorList(res.Errors))
	}
	j := Judgement{Verdict: Fail}
	sr := stats.StepResult{Verdict: stats.VerdictProbe}
	if judge != nil {
		j = judge(res)
		sr = stats.StepResult{Verdict: stepVerdict(j.Verdict, l.Confirm), Passed: j.Verdict == Pass, Failed: j.Failed, Why: j.Why}
	}
	if res.Interrupted || ctx.Err() != nil { // cut short: its figures judge nothing
		out.Interrupted = true
		j, sr = Judgement{Verdict: Fail}, stats.StepResult{Verdict: stats.VerdictInterrupted}
	}
	res.StepResult = &sr
	out.Steps = append(out.Steps, res)
	if s.Done != nil {
		s.Done(res)
	}
	return res, j.Verdict, nil
}

// stepVerdict names a step's verdict in results: a confirmation run's as
// confirmed or not.
func stepVerdict(v Verdict, confirm bool) string {
	switch {
	case confirm && v == Pass:
		return stats.VerdictConfirmed
	case confirm:
		return stats.VerdictNotConfirmed
	case v == Pass:
		return stats.VerdictPass
	case v == ClientLimited:
		return stats.VerdictClientLimited
	}
	return stats.VerdictFail
}

func ignoreCancel(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}

func ptr(f float64) *float64 { return &f }
