package figure

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

func latency(name string, pick func(stats.Latency) float64) Figure {
	return Figure{Name: name, Unit: Time, Latency: true, read: func(r stats.Result) (float64, bool) {
		if r.Latency == nil {
			return 0, false
		}
		return pick(*r.Latency), true
	}}
}

func count(name string, pick func(stats.Result) int64) Figure {
	return Figure{Name: name, Unit: Count, read: func(r stats.Result) (float64, bool) { return float64(pick(r)), true }}
}

// server reads a figure of every watched process of one run and keeps the
// worst, the highest (no server figure is better higher); pick reports
// false when a process lacks the figure, and the run lacks it when every
// process does.
func server(name string, u Unit, need Need, pick func(stats.ServerUsage) (float64, bool)) Figure {
	return Figure{Name: name, Unit: u, Need: need, read: func(r stats.Result) (float64, bool) {
		worst, found := 0.0, false
		for _, s := range r.Server {
			if v, ok := pick(s); ok && (!found || v > worst) {
				worst, found = v, true
			}
		}
		return worst, found
	}}
}

func rss(name string, pick func(stats.RSS) int64) Figure {
	return server(name, Bytes, NeedServer, func(s stats.ServerUsage) (float64, bool) {
		v := pick(s.RSSBytes)
		return float64(v), v > 0 // 0: not sampled
	})
}

// catalogue lists the figures with fixed names; status_NNN, status_Nxx and
// errors_CLASS are made by Lookup.
var catalogue = []Figure{
	latency("p50", func(l stats.Latency) float64 { return l.P50 }),
	latency("p75", func(l stats.Latency) float64 { return l.P75 }),
	latency("p90", func(l stats.Latency) float64 { return l.P90 }),
	latency("p95", func(l stats.Latency) float64 { return l.P95 }),
	latency("p99", func(l stats.Latency) float64 { return l.P99 }),
	latency("p99.9", func(l stats.Latency) float64 { return l.P999 }),
	latency("p99.99", func(l stats.Latency) float64 { return l.P9999 }),
	latency("min", func(l stats.Latency) float64 { return l.Min }),
	latency("mean", func(l stats.Latency) float64 { return l.Mean }),
	latency("max", func(l stats.Latency) float64 { return l.Max }),
	{Name: "rps", Unit: Rate, HigherIsBetter: true, read: func(r stats.Result) (float64, bool) { return r.RequestsPerS, true }},
	count("errors", func(r stats.Result) int64 { return r.Errors.Total() }),
	// Open loop only: whether the client kept the schedule.
	{Name: "achieved_rate", Unit: Rate, HigherIsBetter: true, read: func(r stats.Result) (float64, bool) {
		return r.AchievedRate, r.TargetRate > 0
	}},
	{Name: "late_sends", Unit: Count, read: func(r stats.Result) (float64, bool) {
		if r.ScheduleLag == nil {
			return 0, false
		}
		return float64(r.ScheduleLag.LateSends), true
	}},
	{Name: "lag_p99", Unit: Time, read: func(r stats.Result) (float64, bool) {
		if r.ScheduleLag == nil {
			return 0, false
		}
		return r.ScheduleLag.P99, true
	}},
	rss("server_rss_idle", func(m stats.RSS) int64 { return m.Idle }),
	rss("server_rss_peak", func(m stats.RSS) int64 { return m.Peak }),
	rss("server_rss_after", func(m stats.RSS) int64 { return m.After }),
	server("server_cpu_per_request", Time, NeedServer, func(s stats.ServerUsage) (float64, bool) {
		return s.CPUUsPerRequest, true
	}),
	server("startup", Time, NeedExec, func(s stats.ServerUsage) (float64, bool) {
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

// Lookup finds the figure a name means: one of the catalogue's, a JSON
// spelling of a percentile (p99_9), status_503, status_5xx or
// errors_CLASS. The error is one line listing the names.
func Lookup(name string) (Figure, error) {
	if alias, ok := aliases[name]; ok {
		name = alias
	}
	for _, f := range catalogue {
		if f.Name == name {
			return f, nil
		}
	}
	if m := statusName.FindStringSubmatch(name); m != nil {
		return statusFigure(name, m[1], m[2]), nil
	}
	if class, ok := strings.CutPrefix(name, "errors_"); ok {
		for c := range record.NumErrorClasses {
			if c.String() == class {
				return count(name, func(r stats.Result) int64 { return r.Errors.ByClass(c) }), nil
			}
		}
	}
	return Figure{}, fmt.Errorf("unknown figure %q; use p50, p75, p90, p95, p99, p99.9, p99.99, min, mean, max, rps, "+
		"errors, errors_CLASS (connect, read, write, timeout, status, validation), status_5xx, status_503, "+
		"achieved_rate, late_sends, lag_p99 (open loop), "+
		"server_rss_idle, server_rss_peak, server_rss_after, server_cpu_per_request or startup", name)
}

// Must is Lookup for a name the program itself writes; it panics on an
// unknown one.
func Must(name string) Figure {
	f, err := Lookup(name)
	if err != nil {
		panic(err)
	}
	return f
}

// statusFigure counts the responses of one status ("503") or one class
// of statuses ("5xx").
func statusFigure(name, first, rest string) Figure {
	return count(name, func(r stats.Result) int64 {
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
