// Package threshold reads and checks pass/fail conditions on results, so
// that a run can fail a CI job: thresholds on one result, k6-style
// ("p99<20ms", "errors<0.1%", "rps>=10k", "server_rss_peak<200MiB"), and
// regression bounds between two sets of results (`pummel compare
// --max-regression 5%`). The figures they name are stats/figure's, read
// as compare's table reads them.
//
// It only reads results: it never changes a figure, and it decides no
// exit code (the command line does, from what Check reports).
package threshold

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/pummel-dev/pummel/internal/parse"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/figure"
	"github.com/pummel-dev/pummel/stats/render"
)

// Expr is a parsed threshold: a figure, a comparison and a bound, such as
// "p99<20ms". Parse makes one; Check judges a result by it.
type Expr struct {
	text  string
	fig   figure.Figure
	op    string
	bound float64 // in the expression's unit
	unit  string  // as written: "ms", "MiB", "%", "k", ""
	scale float64 // the figure's base units (µs, bytes, counts) per unit; 0 for "%"
	// target is the target judged ("2", "login"; see target.go), or ""
	// for the whole load.
	target string
}

// comparisons are the operators, two-character ones first so that "<="
// is not read as "<".
var comparisons = []string{"<=", ">=", "==", "!=", "<", ">"}

// Parse reads a threshold: FIGURE OP BOUND, where OP is <, <=, >, >=, ==
// or !=, and BOUND is a number in the figure's units: a time with its
// unit for latencies, startup and server CPU per request (500us, 20ms,
// 1.5s); a size for RSS (200MiB, 64MB, bytes); a count or a percentage
// of all outcomes for errors and statuses (0, 10, 0.1%); requests/s for
// rps (10000, 10k). Errors are one line, without the flag's name.
func Parse(s string) (Expr, error) {
	e := Expr{text: strings.TrimSpace(s)}
	text, target, err := splitSelector(e.text)
	if err != nil {
		return Expr{}, err
	}
	e.target = target
	at := strings.IndexAny(text, "<>=!")
	if at <= 0 {
		return Expr{}, errors.New("write FIGURE OP BOUND, e.g. p99<20ms, errors<0.1%, rps>=10000")
	}
	for _, op := range comparisons {
		if strings.HasPrefix(text[at:], op) {
			e.op = op
			break
		}
	}
	if e.op == "" {
		return Expr{}, fmt.Errorf("%q is not a comparison; use <, <=, >, >=, == or !=", text[at:at+1])
	}
	if e.fig, err = figure.Lookup(strings.TrimSpace(text[:at])); err != nil {
		return Expr{}, err
	}
	if e.target != "" {
		if err := checkTargetFigure(e.fig); err != nil {
			return Expr{}, err
		}
	}
	e.bound, e.unit, e.scale, err = readBound(e.fig.Unit, strings.TrimSpace(text[at+len(e.op):]))
	return e, err
}

// String returns the threshold as written.
func (e Expr) String() string { return e.text }

// Need says what the threshold's figure needs beyond the load.
func (e Expr) Need() figure.Need { return e.fig.Need }

// Check judges r: the figure, in the expression's unit, against the
// bound. A figure r lacks (no response answered, no server watched, no
// outcome to take a share of) fails, with the value "-".
func (e Expr) Check(r stats.Result) stats.Threshold {
	v, ok := e.measure(r)
	if !ok {
		return stats.Threshold{Expr: e.text, Value: "-"}
	}
	return stats.Threshold{Expr: e.text, Value: e.display(v), OK: compare(v, e.op, e.bound)}
}

// display prints the measured value v (in the expression's unit) as the
// rest of pummel's output prints that figure, in the unit its own size
// chooses, so that "server_rss_peak<18.5MB" fails with the "22.65MiB" the
// server line shows: a share as "0.12%", requests/s short with their own
// suffix ("55.6k", where "rps>1M" would have made it "0.0556M"), anything
// else as display does.
func (e Expr) display(v float64) string {
	switch {
	case e.unit == "%":
		return render.FormatSignificant(v) + "%"
	case e.fig.Unit == figure.Rate:
		return render.FormatCompact(v * e.scale)
	}
	return display(e.fig.Unit, v*e.scale)
}

// Check judges r by every threshold, in order.
func Check(es []Expr, r stats.Result) []stats.Threshold {
	var out []stats.Threshold
	for _, e := range es {
		out = append(out, e.Check(r))
	}
	return out
}

// measure reads the figure in the expression's unit: of several values
// (one per run of --exec --runs), the worst.
func (e Expr) measure(r stats.Result) (float64, bool) {
	if e.target != "" {
		var ok bool
		if r, ok = targetView(r, e.target); !ok {
			return 0, false
		}
	}
	vs := e.fig.Samples(r)
	if len(vs) == 0 {
		return 0, false
	}
	v := e.fig.Worst(vs)
	if e.unit != "%" {
		return v / e.scale, true
	}
	n := outcomes(r)
	if n == 0 {
		return 0, false
	}
	return v * 100 / float64(n), true
}

func compare(v float64, op string, bound float64) bool {
	switch op {
	case "<":
		return v < bound
	case "<=":
		return v <= bound
	case ">":
		return v > bound
	case ">=":
		return v >= bound
	case "==":
		return v == bound
	}
	return v != bound
}

// timeUnits maps a time's unit suffixes to microseconds: a time needs one.
var timeUnits = map[string]float64{"ns": 1e-3, "us": 1, "µs": 1, "ms": 1e3, "s": 1e6, "m": 60e6, "h": 3600e6}

// scaleOf returns the base units (µs, bytes, counts, requests/s) per unit
// of a bound of kind k; sizes and counts take the suffixes the rest of the
// command line takes (internal/parse), and "%" (scale 0) is a count's.
func scaleOf(u figure.Unit, unit string) (float64, bool) {
	switch u {
	case figure.Time:
		scale, ok := timeUnits[unit]
		return scale, ok
	case figure.Bytes:
		return parse.SizeUnit(unit)
	case figure.Count:
		if unit == "%" {
			return 0, true
		}
	}
	return parse.CountUnit(unit)
}

// examples shows each kind's bounds in error lines.
var examples = map[figure.Unit]string{
	figure.Time:  "500us, 20ms, 1.5s",
	figure.Bytes: "200MiB, 64MB, 1GiB",
	figure.Count: "0, 10, 1k, or a share: 0.1%",
	figure.Rate:  "10000, 10k",
}

var boundSyntax = regexp.MustCompile(`^([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*(\S*)$`)

// readBound reads a bound of the given kind: its number, its unit as
// written and the base units per unit.
func readBound(k figure.Unit, s string) (bound float64, unit string, scale float64, err error) {
	m := boundSyntax.FindStringSubmatch(s)
	if m == nil {
		return 0, "", 0, fmt.Errorf("bound %q is not a number with a unit (examples: %s)", s, examples[k])
	}
	bound, err = strconv.ParseFloat(m[1], 64)
	scale, ok := scaleOf(k, m[2])
	switch {
	case err != nil || math.IsInf(bound, 0):
		return 0, "", 0, fmt.Errorf("bound %q is not a number (examples: %s)", s, examples[k])
	case !ok && m[2] == "":
		return 0, "", 0, fmt.Errorf("bound %q needs a unit (examples: %s)", s, examples[k])
	case !ok && m[2] == "%":
		return 0, "", 0, fmt.Errorf("bound %q: a percentage applies to errors and status counts only (examples: %s)", s, examples[k])
	case !ok:
		return 0, "", 0, fmt.Errorf("bound %q: unknown unit %q (examples: %s)", s, m[2], examples[k])
	}
	return bound, m[2], scale, nil
}

// outcomes is what a share is a share of: every request that ended, in a
// response (whatever its status) or a socket error.
func outcomes(r stats.Result) int64 { return r.Requests + r.Errors.Socket() }

// OnRate reports whether the threshold judges the request rate (rps),
// which a capacity search sets rather than measures.
func (e Expr) OnRate() bool { return e.fig.Unit == figure.Rate }

// BoundsErrors reports whether the threshold caps the load's failed
// requests, all of them or those of an error status (errors<0.1%,
// status_5xx==0). One with a lower bound, on one error class
// (errors_timeout<1) or on one target bounds too little to count.
func (e Expr) BoundsErrors() bool {
	bounded := e.op == "<" || e.op == "<=" || e.op == "=="
	return bounded && e.target == "" && (e.fig.Name == "errors" || strings.HasPrefix(e.fig.Name, "status_"))
}

// negations is the comparison that holds when an operator's fails.
var negations = map[string]string{"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}

// Why says in words how a failed check t of e missed: "p99 212ms >= 50ms",
// or "p99 absent" for a figure the result lacks.
func (e Expr) Why(t stats.Threshold) string {
	at := strings.Index(e.text, e.op)
	name, bound := strings.TrimSpace(e.text[:at]), strings.TrimSpace(e.text[at+len(e.op):])
	if t.Value == "-" {
		return name + " absent"
	}
	return name + " " + t.Value + " " + negations[e.op] + " " + bound
}

// LatencyBound is the upper bound, in microseconds, that e sets on a
// response-time figure ("p99<50ms": 50,000); ok is false for any other
// threshold, and for one on a single target.
func (e Expr) LatencyBound() (us float64, ok bool) {
	if !e.fig.Latency || (e.op != "<" && e.op != "<=") || e.target != "" {
		return 0, false
	}
	return e.bound * e.scale, true
}
