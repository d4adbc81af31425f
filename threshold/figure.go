// Package threshold reads and checks pass/fail conditions on results, so
// that a run can fail a CI job: thresholds on one result, k6-style
// ("p99<20ms", "errors<0.1%", "rps>=10k", "server_rss_peak<200MiB"), and
// regression bounds between two sets of results (`pummel compare
// --max-regression 5%`).
//
// It only reads results: it never changes a figure, and it decides no
// exit code (the command line does, from what Check reports).
package threshold

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// kind is what a figure measures, which decides the units of its bound.
type kind int

const (
	timeKind  kind = iota // microseconds; a bound needs a unit: us, ms, s…
	bytesKind             // bytes: B, k/M/G (×1000), KiB/MiB/GiB (×1024)
	countKind             // a count, or with % a share of all outcomes
	rateKind              // requests/s, a count's suffixes: k/M/G (×1000)
)

// Need says what a figure needs beyond the load itself.
type Need int

const (
	// NeedNothing: every run has the figure.
	NeedNothing Need = iota
	// NeedServer: a watched server process (--pid or --exec).
	NeedServer
	// NeedExec: a server pummel started (--exec), for its startup time.
	NeedExec
)

// figure is one figure a condition can name.
type figure struct {
	kind kind
	need Need
	// higherIsBetter is true for requests/s, false for every other
	// figure: a threshold takes the worst of several values, and a
	// regression is a fall of the one, a rise of the others.
	higherIsBetter bool
	// values reads the figure: one value, or one per watched server (of
	// every run, with --exec --runs); none when the result lacks it.
	values func(stats.Result) []float64
}

// worst is the value a threshold judges: of several watched servers, the
// one furthest from good.
func (f figure) worst(vs []float64) float64 {
	if f.higherIsBetter {
		return slices.Min(vs)
	}
	return slices.Max(vs)
}

func latency(pick func(stats.Latency) float64) figure {
	return figure{kind: timeKind, values: func(r stats.Result) []float64 {
		if r.Latency == nil {
			return nil
		}
		return []float64{pick(*r.Latency)}
	}}
}

func count(pick func(stats.Result) int64) figure {
	return figure{kind: countKind, values: func(r stats.Result) []float64 { return []float64{float64(pick(r))} }}
}

// server reads a figure of every watched server process; ok false means
// that process lacks it.
func server(k kind, need Need, pick func(stats.ServerUsage) (float64, bool)) figure {
	return figure{kind: k, need: need, values: func(r stats.Result) []float64 {
		var vs []float64
		for _, s := range servers(r) {
			if v, ok := pick(s); ok {
				vs = append(vs, v)
			}
		}
		return vs
	}}
}

// servers lists the watched processes of r: its own, or those of each of
// its runs (--exec --runs N merges runs that each watched their server).
func servers(r stats.Result) []stats.ServerUsage {
	if len(r.Server) > 0 {
		return r.Server
	}
	var all []stats.ServerUsage
	for _, run := range r.Runs {
		all = append(all, run.Server...)
	}
	return all
}

func rss(pick func(stats.RSS) int64) figure {
	return server(bytesKind, NeedServer, func(s stats.ServerUsage) (float64, bool) {
		v := pick(s.RSSBytes)
		return float64(v), v > 0 // 0: not sampled
	})
}

// figures are the figures with fixed names; status_NNN, status_Nxx and
// errors_CLASS are read by lookup.
var figures = map[string]figure{
	"p50":    latency(func(l stats.Latency) float64 { return l.P50 }),
	"p75":    latency(func(l stats.Latency) float64 { return l.P75 }),
	"p90":    latency(func(l stats.Latency) float64 { return l.P90 }),
	"p95":    latency(func(l stats.Latency) float64 { return l.P95 }),
	"p99":    latency(func(l stats.Latency) float64 { return l.P99 }),
	"p99.9":  latency(func(l stats.Latency) float64 { return l.P999 }),
	"p99.99": latency(func(l stats.Latency) float64 { return l.P9999 }),
	"min":    latency(func(l stats.Latency) float64 { return l.Min }),
	"mean":   latency(func(l stats.Latency) float64 { return l.Mean }),
	"max":    latency(func(l stats.Latency) float64 { return l.Max }),
	"rps": {kind: rateKind, higherIsBetter: true, values: func(r stats.Result) []float64 {
		return []float64{r.RequestsPerS}
	}},
	"errors":           count(func(r stats.Result) int64 { return r.Errors.Total() }),
	"server_rss_idle":  rss(func(m stats.RSS) int64 { return m.Idle }),
	"server_rss_peak":  rss(func(m stats.RSS) int64 { return m.Peak }),
	"server_rss_after": rss(func(m stats.RSS) int64 { return m.After }),
	"server_cpu_per_request": server(timeKind, NeedServer, func(s stats.ServerUsage) (float64, bool) {
		return s.CPUUsPerRequest, true
	}),
	"startup": server(timeKind, NeedExec, func(s stats.ServerUsage) (float64, bool) {
		if s.StartupS == nil {
			return 0, false
		}
		return *s.StartupS * 1e6, true
	}),
}

// aliases are the JSON's names of the percentiles with a point.
var aliases = map[string]string{"p99_9": "p99.9", "p99_99": "p99.99"}

// statusName is status_503 or status_5xx.
var statusName = regexp.MustCompile(`^status_([1-5])(xx|[0-9]{2})$`)

// lookup finds the figure a condition names.
func lookup(name string) (figure, error) {
	if alias, ok := aliases[name]; ok {
		name = alias
	}
	if f, ok := figures[name]; ok {
		return f, nil
	}
	if m := statusName.FindStringSubmatch(name); m != nil {
		return statusFigure(m[1], m[2]), nil
	}
	if class, ok := strings.CutPrefix(name, "errors_"); ok {
		for c := range record.NumErrorClasses {
			if c.String() == class {
				return count(func(r stats.Result) int64 { return r.Errors.ByClass(c) }), nil
			}
		}
	}
	return figure{}, fmt.Errorf("unknown figure %q; use p50, p75, p90, p95, p99, p99.9, p99.99, min, mean, max, rps, "+
		"errors, errors_CLASS (connect, read, write, timeout, status, validation), status_5xx, status_503, "+
		"server_rss_idle, server_rss_peak, server_rss_after, server_cpu_per_request or startup", name)
}

// statusFigure counts the responses of one status ("503") or one class
// of statuses ("5xx").
func statusFigure(first, rest string) figure {
	return count(func(r stats.Result) int64 {
		var n int64
		for code, c := range r.Status {
			if code == first+rest || rest == "xx" && len(code) == 3 && code[:1] == first && isDigits(code) {
				n += c
			}
		}
		return n
	})
}

func isDigits(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// outcomes is what a share is a share of: every request that ended, in a
// response (whatever its status) or a socket error.
func outcomes(r stats.Result) int64 { return r.Requests + r.Errors.Socket() }
