package threshold

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/figure"
)

// A threshold may judge one target of a load over a list of targets
// (--targets): "p99{target=2}<20ms" (its 1-based place in the list) or
// "errors{target=login}==0" (its name, from `# name login`). It judges
// the figures a target has: latency, requests, errors and statuses, and
// rps (its requests over the load's duration).

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

// targetView is the part of r that is target's, as a result of its own,
// or false when r has no such target.
func targetView(r stats.Result, target string) (stats.Result, bool) {
	i, err := strconv.Atoi(target)
	if err == nil {
		i-- // 1-based
	} else {
		i = -1
		for j, t := range r.Targets {
			if t.Name == target {
				i = j
			}
		}
	}
	if i < 0 || i >= len(r.Targets) {
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
