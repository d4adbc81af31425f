package suite

import (
	"fmt"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/figure"
	"github.com/pummel-dev/pummel/threshold"
)

// thresholds checks an operation's thresholds. The server's startup is a
// figure of each run, not of an operation (the suite's startup table
// shows it), so a threshold on it is refused here.
func (c *compiler) thresholds(field string, exprs []string) ([]threshold.Expr, error) {
	var out []threshold.Expr
	for i, s := range exprs {
		f := fmt.Sprintf("%s[%d]", field, i)
		e, err := threshold.Parse(s)
		if err != nil {
			return nil, c.pos.errorf(f, "%q: %v", s, err)
		}
		if e.Need() == figure.NeedExec {
			return nil, c.pos.errorf(f, "%q: startup is a figure of each run, not of an operation", s)
		}
		out = append(out, e)
	}
	return out, nil
}

// checkThresholds judges one operation in one mode over its runs:
// latencies, errors and statuses over every response of every run (the
// pooled result), requests/s as the table shows it (the median of the
// runs' rates), a server figure by its worst run.
func checkThresholds(exprs []string, pooled stats.Result, runs []stats.Result, rate float64) ([]stats.Threshold, error) {
	pooled.RequestsPerS = rate
	if len(runs) > 1 {
		pooled.Server, pooled.Runs = nil, runs
	}
	var out []stats.Threshold
	for _, s := range exprs {
		e, err := threshold.Parse(s)
		if err != nil {
			return nil, fmt.Errorf("threshold %q: %w", s, err)
		}
		out = append(out, e.Check(pooled))
	}
	return out, nil
}

// thresholdFailures is one line per failed threshold of the summaries.
func (r *Result) thresholdFailures() []string {
	var lines []string
	for _, s := range r.Summary.Operations {
		for _, t := range stats.FailedThresholds(s.Thresholds) {
			lines = append(lines, fmt.Sprintf("operation %s, mode %s: threshold %s failed: %s", s.Operation, s.Mode, t.Expr, t.Value))
		}
	}
	return lines
}
