package main

import (
	"fmt"
	"strings"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/figure"
	"github.com/pummel-dev/pummel/stats/render"
	"github.com/pummel-dev/pummel/threshold"
)

// thresholds reads every --threshold before any load is sent: a bad
// expression, one on a server figure with no server to watch, or one on a
// target the load does not have, is bad usage naming the flag and the
// expression. {target=…} selects a row of targets (engine.TargetRows).
func (o *options) thresholds(plan watchPlan, targets []engine.Target) ([]threshold.Expr, error) {
	rows, _, err := engine.TargetRows(targets)
	if err != nil {
		return nil, usageError{"--targets: " + err.Error()}
	}
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.Name
	}
	var out []threshold.Expr
	for _, s := range o.thresholdExprs.Value() {
		e, err := threshold.Parse(s)
		if err == nil {
			err = needs(e.Need(), plan)
		}
		if err == nil {
			err = e.CheckTarget(names)
		}
		if err != nil {
			return nil, usageError{fmt.Sprintf("--threshold %q: %v", s, err)}
		}
		out = append(out, e)
	}
	return out, nil
}

// needs reports what a figure lacks in this run's plan.
func needs(n figure.Need, plan watchPlan) error {
	switch {
	case n == figure.NeedServer && plan.exec == nil && len(plan.pids) == 0:
		return fmt.Errorf("a server figure needs --pid or --exec")
	case n == figure.NeedExec && plan.exec == nil:
		return fmt.Errorf("the startup time needs --exec, which starts the server")
	}
	return nil
}

// thresholdFailures is one line per failed threshold:
// "threshold p99<20ms failed: 23.4ms".
func thresholdFailures(ts []stats.Threshold) []string {
	var lines []string
	for _, t := range stats.FailedThresholds(ts) {
		lines = append(lines, fmt.Sprintf("threshold %s failed: %s", t.Expr, t.Value))
	}
	return lines
}

// resultExit decides how a run that was carried out ends, once its result
// is written, by precedence: interrupted (130), an output not written or
// not one request answered (1: the run could not be carried out, which
// says more than its conditions), a failed threshold (3), done (0). Every
// failed threshold is printed whatever the code.
func resultExit(res stats.Result, writeErr error) error {
	lines := thresholdFailures(res.Thresholds)
	code := exitCondition
	switch {
	case res.Interrupted:
		code = exitInterrupted
	case writeErr != nil:
		code = exitFailed
	case res.Requests == 0: // the figures are written, but the run measured nothing
		code = exitFailed
		lines = append(lines, fmt.Sprintf("not one request was answered (errors: %s)", render.ErrorList(res.Errors)))
	case len(lines) == 0:
		return nil
	}
	if writeErr != nil {
		lines = append(lines, writeErr.Error())
	}
	return exitError{code, strings.Join(lines, "\n")}
}
