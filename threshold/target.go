package threshold

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/figure"
)

// A threshold may judge one row of a load over a list of targets
// (--targets; targets that share a name share a row, see
// engine.TargetRows): "p99{target=2}<20ms" (its 1-based place among the
// rows, the place in the list when no two targets share a row) or
// "errors{target=login}==0" (its name, from `# name login`). It judges
// the figures a row has: latency, requests, errors and statuses, and rps
// (its requests over the load's duration).

// splitSelector takes "{target=X}" out of a threshold's text, returning
// the rest and X ("" without a selector).
func splitSelector(text string) (rest, target string, err error) {
	open := strings.Index(text, "{")
	if open < 0 {
		return text, "", nil
	}
	end := strings.Index(text[open:], "}")
	if end < 0 {
		return "", "", errors.New("a { without its }: write p99{target=2}<20ms")
	}
	sel := text[open+1 : open+end]
	key, value, ok := strings.Cut(sel, "=")
	if !ok || strings.TrimSpace(key) != "target" || strings.TrimSpace(value) == "" {
		return "", "", fmt.Errorf("{%s}: the one selector is {target=N} (its place in --targets, from 1) or {target=NAME}", sel)
	}
	return text[:open] + text[open+end+1:], strings.TrimSpace(value), nil
}

// checkTargetFigure refuses a figure a target does not have.
func checkTargetFigure(f figure.Figure) error {
	if f.Need != figure.NeedNothing {
		return fmt.Errorf("%s{target=…}: a target has no server figures; judge its latency, requests, errors, statuses or rps", f.Name)
	}
	return nil
}

// CheckTarget refuses, before any load, a threshold on a target that the
// load will not have: names lists the load's rows of targets in order,
// each by its name ("" for one without), and is empty without --targets.
func (e Expr) CheckTarget(names []string) error {
	if e.target == "" {
		return nil
	}
	if len(names) == 0 {
		return fmt.Errorf("{target=%s}: a target needs --targets", e.target)
	}
	if targetIndex(names, e.target) < 0 {
		return fmt.Errorf("{target=%s}: --targets makes %d rows of figures, none of that place or name", e.target, len(names))
	}
	return nil
}

// targetIndex is the place in names of target, a 1-based number or a
// name, from 0; -1 when there is none.
func targetIndex(names []string, target string) int {
	if i, err := strconv.Atoi(target); err == nil {
		if i < 1 || i > len(names) {
			return -1
		}
		return i - 1
	}
	for j, n := range names {
		if n == target {
			return j
		}
	}
	return -1
}

// targetView is the part of r that is target's, as a result of its own,
// or false when r has no such target.
func targetView(r stats.Result, target string) (stats.Result, bool) {
	names := make([]string, len(r.Targets))
	for j, t := range r.Targets {
		names[j] = t.Name
	}
	i := targetIndex(names, target)
	if i < 0 {
		return stats.Result{}, false
	}
	t := r.Targets[i]
	v := stats.Result{Requests: t.Requests, Status: t.Status, Errors: t.Errors, Latency: t.Latency,
		LatencyHistogram: t.LatencyHistogram, DurationS: r.DurationS}
	if r.DurationS > 0 {
		v.RequestsPerS = float64(t.Requests) / r.DurationS
	}
	return v, true
}
