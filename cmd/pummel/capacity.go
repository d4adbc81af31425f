package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/pummel-dev/pummel/capacity"
	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/export"
	"github.com/pummel-dev/pummel/internal/wait"
	"github.com/pummel-dev/pummel/measure"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/render"
	"github.com/pummel-dev/pummel/threshold"
	"github.com/urfave/cli/v2"
)

// searchOptions holds the flags of `pummel capacity` beyond the load's.
type searchOptions struct {
	step, stepWarmup, from, to, precision, confirm, maxSteps string
}

// Defaults of the search flags.
const (
	defaultStep     = 10 * time.Second
	defaultMaxSteps = 20
	maxSearchSteps  = 1000
)

func searchFlags(s *searchOptions) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "step", Value: defaultStep.String(), Destination: &s.step, Usage: "measure each step for `D` (at least 1s); a step whose evidence does not tell yet is measured on, up to 4 × D"},
		&cli.StringFlag{Name: "step-warmup", Value: "2s", Destination: &s.stepWarmup, Usage: "load at the step's rate for `D` before measuring it; the server also rests that long between steps"},
		&cli.StringFlag{Name: "from", Value: "10", Destination: &s.from, Usage: "the lowest rate `R` tried, in requests/s; given, the search starts there, else at a quarter of the probe's throughput"},
		&cli.StringFlag{Name: "to", Destination: &s.to, DefaultText: "the probe's throughput × 1.5", Usage: "the highest rate `R` tried, in requests/s (no closed-loop probe then)"},
		&cli.StringFlag{Name: "precision", Value: "2%", Destination: &s.precision, Usage: "stop when the highest passing and the lowest failing rate are within `P` (0% < P <= 50%)"},
		&cli.StringFlag{Name: "confirm", Destination: &s.confirm, DefaultText: "3 × --step", Usage: "run the answer again for `D`; 0 skips it"},
		&cli.StringFlag{Name: "max-steps", Value: fmt.Sprint(defaultMaxSteps), Destination: &s.maxSteps, Usage: "try at most `N` rates"},
	}
}

// capacityCommand is `pummel capacity`.
func capacityCommand(l *loader) *cli.Command {
	var s searchOptions
	return &cli.Command{
		Name:      "capacity",
		Usage:     "find the highest rate the server carries within the --threshold SLO",
		ArgsUsage: "URL [-- SCRIPT ARGS]",
		Description: "A closed-loop probe bounds the search (unless --to is given); open-loop steps start at a quarter of the probe's " +
			"throughput (or --from), climb doubling until one fails, then bisect to --precision; a step that fails below every " +
			"failure so far runs again before it caps the search; a confirmation run checks the answer. A step passes when every " +
			"--threshold holds with 95% confidence (a percentile or error share is judged on its counts, and a step too short " +
			"to tell is measured on) and the client kept the rate; a step pummel itself could not carry is client-limited, never " +
			"the server's limit. Exit codes: 0 found and confirmed (or every rate up to --to passed); 1 the search could " +
			"not be carried out; 2 bad usage; 3 no rate met the SLO, or the confirmation failed; 130 interrupted.",
		Flags:        append(capacityLoadFlags(l.opts), searchFlags(&s)...),
		Action:       func(c *cli.Context) error { return l.capacity(c, &s) },
		OnUsageError: onUsageError,
	}
}

// notWithCapacity are the load flags a capacity search sets itself, or
// that make no sense across its steps, with what to use instead.
var notWithCapacity = []struct{ name, flag, instead string }{
	{"rate", "-R/--rate", "the search sets the rate (--from, --to)"},
	{"requests", "-n/--requests", "each step is timed (--step)"},
	{"duration", "-d/--duration", "use --step"},
	{"warmup", "--warmup", "use --step-warmup"},
	{"warmup-rate", "--warmup-rate", "each step warms up at its own rate"},
	{"warmup-requests", "--warmup-requests", "use --step-warmup"},
	{"pipeline", "--pipeline", "a step's rate is of requests, one at a time per connection"},
	{"shard", "--shard", "the search runs on one machine"},
	{"start-at", "--start-at", "the search runs on one machine"},
	{"runs", "--runs", "one server is watched across the whole search"},
	{"hdr-log", "--hdr-log", "write -o capacity.json: every step keeps its histograms"},
	{"log-requests", "--log-requests", "log one rate's requests with pummel -R"},
	{"dry-run", "--dry-run", "run pummel with the same flags and -R instead"},
	{"latency", "--latency", "every step prints p50, p99 and p99.9; -o capacity.json keeps its whole distribution"},
}

// capacityLoadFlags are the load's flags, those in notWithCapacity
// hidden from help: they are still parsed, so that using one says why it
// is refused rather than that it is unknown.
func capacityLoadFlags(o *options) []cli.Flag {
	refused := map[string]bool{}
	for _, f := range notWithCapacity {
		refused[f.name] = true
	}
	flags := loadFlags(o)
	for _, f := range flags {
		if t, ok := f.(*cli.StringSliceFlag); ok && t.Name == "threshold" {
			t.Usage = "the SLO every step must meet: `EXPR` such as p99<50ms, errors<0.1%, status_5xx==0, server_rss_peak<200MiB (repeatable, at least one)"
		}
		if !refused[f.Names()[0]] {
			continue
		}
		switch f := f.(type) {
		case *cli.StringFlag:
			f.Hidden = true
		case *cli.BoolFlag:
			f.Hidden = true
		}
	}
	return flags
}

// capacity is the action of `pummel capacity`.
func (l *loader) capacity(c *cli.Context, so *searchOptions) error {
	if err := l.readArgs(c); err != nil {
		return err
	}
	for _, f := range notWithCapacity {
		if c.IsSet(f.name) {
			return usageError{fmt.Sprintf("%s: not with capacity (%s)", f.flag, f.instead)}
		}
	}
	settings, search, err := so.settings()
	if err != nil {
		return err
	}
	s, err := l.prepare(c, l.capacityFiles(), sessionRules{thresholds: (*options).slo})
	if err != nil {
		return err
	}
	defer l.close(s)
	s.cfg.Duration, s.cfg.Warmup = seconds(search.StepS), seconds(search.StepWarmupS)
	if err := l.open(c, s); err != nil {
		return err
	}
	cfg, slo := s.cfg, s.thresholds
	l.header = func(w io.Writer) error { return render.WriteCapacityHeader(w, l.shape, exprTexts(slo), search) }
	run := &capacityRun{loader: l, cfg: cfg, slo: slo, search: search, progress: s.progress}
	// Connections is what the search can keep in flight: with --http2,
	// each connection's streams.
	cs := &capacity.Search{Settings: settings, SLO: slo, Connections: cfg.Connections * max(cfg.Streams, 1),
		Step: seconds(search.StepS), ConfirmTime: seconds(search.ConfirmS), Measure: run.measure, Rest: run.rest, Done: run.done}
	if c.IsSet("from") || settings.To > 0 {
		cs.Start = settings.From // else the probe's throughput sets it
	}
	body := func(ctx context.Context, w *measure.Watch) (stats.Result, error) {
		run.watch = w
		out, err := cs.Run(ctx)
		run.search.To, run.search.Start = out.To, out.Start // the probe's, if it set them
		return run.result(out, err)
	}
	var res stats.Result
	if s.plan.exec != nil {
		res, err = l.execRun(c.Context, *s.plan.exec, s.plan.watch, body)
	} else {
		res, err = l.watched(c.Context, s.plan, body)
	}
	run.progress.clear()
	if err != nil && res.Capacity == nil {
		return err
	}
	stopped := err // the steps before a load that could not be carried out are written all the same
	l.exports.finish(&res)
	l.describe(s, &res)
	written := errors.Join(l.writeCapacity(s.outs, res), l.scriptDone(cfg, res))
	if stopped != nil {
		return errors.Join(stopped, written)
	}
	return capacityExit(res, written)
}

// capacityRun carries out the loads of one search over one watch.
type capacityRun struct {
	*loader
	cfg      engine.Config // every step's load; the rate and time are set per step
	slo      []threshold.Expr
	search   stats.Search
	progress *progressLine
	watch    *measure.Watch // set as the search starts
	steps    int
}

// measure is the search's Measure: the probe, a step or a confirmation.
func (r *capacityRun) measure(ctx context.Context, l capacity.Load) (stats.Result, error) {
	cfg := r.cfg
	cfg.Rates = nil
	rate := "closed-loop probe"
	if l.Rate > 0 {
		cfg.Rates, rate = []float64{l.Rate}, render.FormatRateWhole(l.Rate)+" req/s"
	}
	if l.Duration > 0 {
		cfg.Duration = l.Duration
	}
	switch {
	case l.Confirm:
		rate = "confirming " + rate
	case l.Retest:
		rate += ", again"
	}
	if l.Continue {
		cfg.Warmup, rate = 0, rate+", measuring on"
	} else {
		r.steps++
	}
	if r.progress != nil {
		r.progress.setPrefix(fmt.Sprintf("step %d, %s: ", r.steps, rate))
		cfg.Progress = r.progress.show
	}
	r.exports.observe(&cfg, r.watch, export.Label{Name: "step", Value: strconv.Itoa(r.steps)})
	return r.watch.Step(ctx, cfg)
}

// rest gives the server --step-warmup to recover between steps, so that
// a failed step's backlog does not spill into the next.
func (r *capacityRun) rest(ctx context.Context) error {
	return wait.For(ctx, seconds(r.search.StepWarmupS))
}

// done prints a step's line as it ends: on stdout in text, where the
// header went, else on stderr with the progress.
func (r *capacityRun) done(st stats.Result) {
	r.progress.clear()
	line := render.CapacityStepLine(r.steps, st) + "\n"
	switch {
	case r.opts.format == "text":
		io.WriteString(r.stdout, line) //nolint:errcheck // a closed stdout shows when the result is written
	case r.loader.progress != progressNever:
		io.WriteString(r.stderr, line) //nolint:errcheck // stderr is best effort
	}
}

// result makes the search's outcome one result: the run that stands for
// it, with every step and the answer.
func (r *capacityRun) result(out capacity.Outcome, err error) (stats.Result, error) {
	res := out.Final
	res.Steps = out.Steps
	out.Capacity.Search = r.search
	res.Capacity = &out.Capacity
	res.Interrupted = res.Interrupted || out.Interrupted
	res.Warnings = capacity.Warnings(out, r.slo, r.cfg.Connections*max(r.cfg.Streams, 1), err == nil && !out.Interrupted)
	switch {
	case errors.Is(err, capacity.ErrNoResponse):
		return stats.Result{}, exitError{exitFailed, "the search could not be carried out: " + err.Error()}
	case err != nil && len(out.Steps) == 0:
		return stats.Result{}, err
	case err != nil:
		out.Capacity.Stopped = err.Error()
	}
	return res, err
}

// writeCapacity writes the search's result to every file, then to stdout.
func (l *loader) writeCapacity(outs []output, res stats.Result) error {
	var errs []error
	for _, out := range outs {
		errs = append(errs, l.createFile(out.flag, out.path, func(w io.Writer) error { return out.render(w, res) }))
	}
	var err error
	switch l.opts.format {
	case "text":
		err = render.WriteCapacityText(l.stdout, res, l.announced)
	case "json":
		err = stats.WriteJSON(l.stdout, res)
	default:
		err = render.WriteCapacityMarkdown(l.stdout, res)
	}
	if err != nil {
		errs = append(errs, fmt.Errorf("writing the result to stdout: %w", err))
	}
	return errors.Join(errs...)
}

// capacityRenderers render a search by the output file's format.
var capacityRenderers = map[string]func(io.Writer, stats.Result) error{
	"text":     func(w io.Writer, r stats.Result) error { return render.WriteCapacityText(w, r, false) },
	"json":     stats.WriteJSON,
	"markdown": render.WriteCapacityMarkdown,
}

// capacityFiles lists the -o files of a search.
func (l *loader) capacityFiles() []output {
	var outs []output
	for _, path := range l.opts.outputs.Value() {
		outs = append(outs, output{flag: "-o", path: path, render: capacityRenderers[formatOf(path)]})
	}
	return outs
}

// capacityExit decides how a search that was carried out ends, once its
// result is written: interrupted (130), an output not written or the
// client the limit before any rate passed (1), no rate met the SLO or the
// confirmation failed every time (3), done (0).
func capacityExit(res stats.Result, writeErr error) error {
	c := res.Capacity
	switch {
	case res.Interrupted:
		return exitError{exitInterrupted, errText(writeErr)}
	case writeErr != nil:
		return exitError{exitFailed, writeErr.Error()}
	case c.Rate == nil && c.LimitedBy == stats.LimitClient:
		return exitError{exitFailed, "the client was the limit before any rate passed: " + c.Why}
	case c.Rate == nil && c.FailInconclusive:
		return exitError{exitCondition, fmt.Sprintf("the capacity is unknown: no step from %s req/s held the samples to judge the SLO; longer steps (--step) or a higher --from give them more", render.FormatRateWhole(c.Search.From))}
	case c.Rate == nil:
		return exitError{exitCondition, fmt.Sprintf("no rate from %s req/s met the SLO", render.FormatRateWhole(c.Search.From))}
	case c.Search.ConfirmS > 0 && !c.Confirmed:
		return exitError{exitCondition, "the capacity was not confirmed: every confirmation run failed the SLO"}
	}
	return nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// slo reads the thresholds a search judges its steps by: at least one,
// none on the rate it searches.
func (o *options) slo(plan watchPlan, targets []engine.Target) ([]threshold.Expr, error) {
	slo, err := o.thresholds(plan, targets)
	if err != nil {
		return nil, err
	}
	if len(slo) == 0 {
		return nil, usageError{"--threshold: capacity needs at least one, the SLO each step must meet (e.g. --threshold 'p99<50ms' --threshold 'errors<0.1%')"}
	}
	for _, e := range slo {
		if e.OnRate() {
			return nil, usageError{fmt.Sprintf("--threshold %q: the rate is what capacity searches; bound latency, errors, statuses or server figures", e)}
		}
	}
	return slo, nil
}

func exprTexts(es []threshold.Expr) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.String()
	}
	return out
}

// settings reads the search flags.
func (s *searchOptions) settings() (capacity.Settings, stats.Search, error) {
	var out stats.Search
	step, err := parseDuration(s.step)
	if err != nil || step < time.Second {
		return capacity.Settings{}, out, badFlag("--step", orNeed(err, "at least 1s"))
	}
	warmup, err := parseDuration(s.stepWarmup)
	if err != nil {
		return capacity.Settings{}, out, badFlag("--step-warmup", err)
	}
	confirm := 3 * step
	if s.confirm != "" {
		if confirm, err = parseDuration(s.confirm); err != nil || (confirm > 0 && confirm < time.Second) {
			return capacity.Settings{}, out, badFlag("--confirm", orNeed(err, "0 (none) or at least 1s"))
		}
	}
	from, err := searchRate("--from", s.from)
	if err != nil {
		return capacity.Settings{}, out, err
	}
	var to float64
	if s.to != "" {
		if to, err = searchRate("--to", s.to); err != nil {
			return capacity.Settings{}, out, err
		}
		if from > to {
			return capacity.Settings{}, out, usageError{fmt.Sprintf("--from %s is above --to %s", s.from, s.to)}
		}
	}
	precision, err := parsePrecision(s.precision)
	if err != nil {
		return capacity.Settings{}, out, badFlag("--precision", err)
	}
	n, err := parseCount(s.maxSteps)
	if err != nil || n < 1 || n > maxSearchSteps {
		return capacity.Settings{}, out, badFlag("--max-steps", orRange(err, s.maxSteps, maxSearchSteps))
	}
	out = stats.Search{StepS: step.Seconds(), StepWarmupS: warmup.Seconds(), ConfirmS: confirm.Seconds(), From: from, To: to, Precision: precision, MaxSteps: int(n)}
	return capacity.Settings{From: from, To: to, Precision: precision, MaxSteps: int(n)}, out, nil
}

// searchRate reads one rate of the search, in requests/s.
func searchRate(flag, s string) (float64, error) {
	r, err := parseRates(s)
	if err != nil || len(r) != 1 || r[0] <= 0 || r[0] > engine.MaxRate {
		return 0, badFlag(flag, orNeed(err, fmt.Sprintf("one rate above 0 and at most %d requests/s", engine.MaxRate)))
	}
	return r[0], nil
}

// parsePrecision reads a percentage in (0%, 50%] as a share: "2%" is 0.02.
func parsePrecision(s string) (float64, error) {
	num, ok := strings.CutSuffix(strings.TrimSpace(s), "%")
	p, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || !(p > 0 && p <= 50) {
		return 0, fmt.Errorf("%q is not a percentage above 0%% and at most 50%% (example: 2%%)", s)
	}
	return p / 100, nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
