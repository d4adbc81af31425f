package capacity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/render"
	"github.com/pummel-dev/pummel/threshold"
)

// Load is one load a search asks for: closed loop when Rate is 0 (the
// probe), else open loop at Rate requests/s for Duration (0: the probe's
// own time, --step); Confirm marks a confirmation run, Retest a step
// run again at a rate that had just failed, Continue a load that
// measures on at the rate of the one before it (a step whose evidence
// did not tell yet): no warm-up, no rest before it.
type Load struct {
	Rate     float64
	Duration time.Duration
	Confirm  bool
	Retest   bool
	Continue bool
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
	// Step is a step's measured time, at least: a step at a rate too low
	// to gather the samples its thresholds need in Step runs longer, and
	// one whose evidence does not tell is measured on, up to MaxStretch
	// × Step in all.
	Step time.Duration
	// ConfirmTime is the confirmation run's measured time (0: none).
	ConfirmTime time.Duration
	// Measure carries out one load; it starts with the server rested (see
	// Rest) and ends with nothing outstanding.
	Measure func(ctx context.Context, l Load) (stats.Result, error)
	// Rest gives the server a pause between loads.
	Rest func(ctx context.Context) error
	// Done, if set, is called with each step's result as it ends, its
	// verdict set: for a live display.
	Done func(step stats.Result)
}

// MaxConfirmations bounds the confirmation runs (see confirm).
const MaxConfirmations = 8

// MaxStretch bounds a step's measured time, in steps: one whose
// evidence has not told after MaxStretch × Step is inconclusive.
const MaxStretch = 4

// ErrNoResponse is returned when the probe, or the first step, got not
// one response: the search cannot be carried out.
var ErrNoResponse = errors.New("the server did not answer one request")

// Outcome is what a search found.
type Outcome struct {
	// Capacity is the answer; its Search is left to the caller.
	Capacity stats.Capacity
	// To is the highest rate the search could try: Settings.To, or the
	// probe's throughput × 1.5; Start the first it tried.
	To, Start float64
	// Steps are every load run, in order: the probe, the steps, the
	// confirmation runs (a step measured on is one step).
	Steps []stats.Result
	// Final is the result that stands for the search: the last
	// confirmation run, else the step at the answer, else the last step.
	Final stats.Result
	// Interrupted is true when ctx ended the search.
	Interrupted bool
}

// Run carries out the search: the probe (when Settings.To is 0), the
// steps chosen by Next, each judged by Judge, and the confirmation runs.
// A step that fails below the lowest failure so far is run again before
// it may cap the search, and fails only if it fails again: one burst of
// a busy machine's noise must not become the server's limit (a fail
// where most responses broke the SLO is no such burst, and stands). When a
// load cannot be carried out it returns the error with what it measured
// so far, the answer read from the steps before it; ctx ending is not an
// error (Outcome.Interrupted).
func (s *Search) Run(ctx context.Context) (Outcome, error) {
	out := Outcome{To: s.To}
	settings := s.Settings
	var best float64 // the server's best time (µs): the probe's fastest, then the first pass's median
	if out.To == 0 {
		probe, err := s.run(ctx, &out, Load{})
		if err == nil && !out.Interrupted {
			s.keep(&out, probe, Load{}, Judgement{}, 0)
		}
		if err != nil || out.Interrupted {
			return out, err
		}
		out.To = max(probe.RequestsPerS*1.5, s.From)
		if settings.Start == 0 {
			settings.Start = round3(probe.RequestsPerS * StartShare)
		}
		if probe.Latency != nil {
			best = probe.Latency.Min
		}
	}
	settings.To = out.To
	settings.Start = min(max(settings.Start, settings.From), settings.To)
	out.Start = settings.Start
	var tried []Tried
	byRate := map[float64]stats.Result{}
	passed := false
	var err error
	for {
		rate, ok := Next(settings, tried)
		if !ok {
			break
		}
		var res stats.Result
		var j Judgement
		if res, j, err = s.step(ctx, &out, Load{Rate: rate}, best); err != nil || out.Interrupted {
			break
		}
		if b := BracketOf(tried); j.Verdict == Fail && !j.Overwhelming && (b.Fail == 0 || rate < b.Fail) {
			if res, j, err = s.step(ctx, &out, Load{Rate: rate, Retest: true}, best); err != nil || out.Interrupted {
				break
			}
		}
		v := j.Verdict
		if v == Pass && !passed && res.LatencyUncorrected != nil {
			best, passed = res.LatencyUncorrected.P50, true
		}
		tried = append(tried, Tried{Rate: rate, Verdict: v})
		byRate[rate] = res
	}
	out.Capacity = s.answer(settings, tried, byRate)
	if err == nil && !out.Interrupted {
		out.Capacity.EndedBy = Ending(settings, tried)
	}
	if len(out.Steps) > 0 {
		out.Final = out.Steps[len(out.Steps)-1]
	}
	b := BracketOf(tried)
	if b.Pass > 0 {
		out.Final = byRate[b.Pass]
	}
	if b.Pass > 0 && s.ConfirmTime > 0 && err == nil && !out.Interrupted {
		err = s.confirm(ctx, &out, b.Pass, best)
	}
	for _, st := range out.Steps {
		if st.TargetRate > 0 {
			out.Capacity.StepsRun++
		}
	}
	return out, err
}

// answer reads the capacity from the steps tried.
func (s *Search) answer(settings Settings, tried []Tried, byRate map[float64]stats.Result) stats.Capacity {
	b := BracketOf(tried)
	c := stats.Capacity{LimitedBy: stats.LimitServer, Confidence: Confidence}
	for _, e := range s.SLO {
		c.Thresholds = append(c.Thresholds, e.String())
	}
	if b.Pass > 0 {
		c.Rate, c.PassRate = ptr(b.Pass), ptr(b.Pass)
	}
	if b.Fail > 0 {
		c.FailRate, c.FailInconclusive = ptr(b.Fail), b.Inconclusive
		c.Why = byRate[b.Fail].Why
	}
	if b.Pass == 0 && b.Fail == 0 && b.Unsure > 0 { // every step told nothing
		c.FailRate, c.FailInconclusive = ptr(b.Unsure), true
		c.Why = byRate[b.Unsure].Why
	}
	c.PrecisionReached = b.Pass > 0 && b.Fail > 0 && b.Fail <= b.Pass*(1+settings.Precision)
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

// confirm runs the answer again, for the confirmation's longer time. A
// server whose tail only shows over the longer run is often well below
// the rate its steps passed: while no rate is confirmed, the next is
// lower by Precision, then by twice and four times as much (up to half);
// once one is, the rates between it and the lowest that failed are halved
// to the search's precision. The answer is the highest rate confirmed,
// never one only the short steps passed; MaxConfirmations runs at most.
func (s *Search) confirm(ctx context.Context, out *Outcome, rate, best float64) error {
	lo, hi := 0.0, 0.0 // the highest rate confirmed, the lowest whose confirmation failed
	down := s.Precision
	for range MaxConfirmations {
		res, j, err := s.step(ctx, out, Load{Rate: rate, Confirm: true}, best)
		if err != nil || out.Interrupted {
			return err
		}
		out.Final = res
		if j.Verdict == Pass {
			lo = rate
			out.Capacity.Rate, out.Capacity.Confirmed = ptr(rate), true
		} else {
			hi = rate
		}
		switch {
		case lo > 0 && (hi == 0 || hi <= lo*(1+s.Precision)):
			return nil // confirmed, to the search's precision
		case lo > 0:
			rate = math.Sqrt(lo * hi)
		default:
			rate, down = hi*(1-down), min(2*down, 0.5)
		}
		if rate < s.From {
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

// step runs one open-loop step at l.Rate and judges it: for its planned
// time (stepTime), then on at the same rate while its evidence does not
// tell (Undecided), up to MaxStretch steps in all; still undecided, it
// is Inconclusive. Its parts make one result, merged exactly.
func (s *Search) step(ctx context.Context, out *Outcome, l Load, best float64) (stats.Result, Judgement, error) {
	base := s.Step
	if l.Confirm {
		base = s.ConfirmTime
	}
	longest := base + (MaxStretch-1)*s.Step
	l.Duration = s.stepTime(l.Rate, base, longest)
	res, err := s.run(ctx, out, l)
	if err != nil || out.Interrupted {
		return res, Judgement{Verdict: Fail}, err
	}
	parts, measured := []stats.Result{res}, l.Duration
	j := Judge(res, s.SLO, s.Connections, best)
	for j.Verdict == Undecided && measured < longest {
		more := Load{Rate: l.Rate, Duration: min(s.Step, longest-measured), Confirm: l.Confirm, Retest: l.Retest, Continue: true}
		part, err := s.run(ctx, out, more)
		if err != nil || out.Interrupted {
			return part, Judgement{Verdict: Fail}, err
		}
		parts, measured = append(parts, part), measured+more.Duration
		if res, err = joinParts(parts); err != nil {
			return res, Judgement{Verdict: Fail}, err
		}
		j = Judge(res, s.SLO, s.Connections, best)
	}
	if j.Verdict == Undecided {
		j.Verdict = Inconclusive
	}
	res = s.keep(out, res, l, j, len(parts)-1)
	return res, j, nil
}

// stepTime is how long a step at rate is first measured: base, or
// longer when rate gives base too few samples for its thresholds to be
// able to hold (samplesToPass, with a quarter to spare), up to longest.
func (s *Search) stepTime(rate float64, base, longest time.Duration) time.Duration {
	need := int64(0)
	for _, e := range s.SLO {
		if share, ok := e.Allowed(); ok {
			need = max(need, samplesToPass(share))
		}
	}
	d := time.Duration(1.25 * float64(need) / rate * float64(time.Second)).Round(100 * time.Millisecond)
	return min(max(d, base), max(longest, base))
}

// run rests the server (except before the first load and a Continue),
// runs l and checks it was carried out: ctx ending marks out
// Interrupted, and is no error.
func (s *Search) run(ctx context.Context, out *Outcome, l Load) (stats.Result, error) {
	if len(out.Steps) > 0 && !l.Continue && s.Rest != nil {
		if err := s.Rest(ctx); err != nil {
			out.Interrupted = ctx.Err() != nil
			return stats.Result{}, ignoreCancel(ctx, err)
		}
	}
	res, err := s.Measure(ctx, l)
	if err == nil {
		err = exited(res)
	}
	if err != nil {
		out.Interrupted = ctx.Err() != nil
		return res, ignoreCancel(ctx, err)
	}
	if res.Requests == 0 && len(out.Steps) == 0 && !l.Continue && !res.Interrupted && ctx.Err() == nil { // an interrupt is no server's silence
		return res, fmt.Errorf("%w (errors: %s)", ErrNoResponse, render.ErrorList(res.Errors))
	}
	if res.Interrupted || ctx.Err() != nil {
		out.Interrupted = true
		res.StepResult = &stats.StepResult{Verdict: stats.VerdictInterrupted} // cut short: its figures judge nothing
		out.Steps = append(out.Steps, res)
		if s.Done != nil {
			s.Done(res)
		}
	}
	return res, nil
}

// keep records a load that ran whole with its judgement j (none for the
// probe, Rate 0), extended times measured on, and reports it to Done.
func (s *Search) keep(out *Outcome, res stats.Result, l Load, j Judgement, extended int) stats.Result {
	sr := stats.StepResult{Verdict: stats.VerdictProbe}
	if l.Rate > 0 {
		sr = stats.StepResult{Verdict: stepVerdict(j.Verdict, l.Confirm), Passed: j.Verdict == Pass, Failed: j.Failed, Why: j.Why,
			Samples: j.Samples, Extensions: extended, Retest: l.Retest}
	}
	res.StepResult = &sr
	out.Steps = append(out.Steps, res)
	if s.Done != nil {
		s.Done(res)
	}
	return res
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
	case v == Inconclusive:
		return stats.VerdictInconclusive
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
