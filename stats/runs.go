package stats

import (
	"fmt"
	"slices"
)

// runFigure is one figure summarised across runs.
type runFigure struct {
	name   string
	value  func(Result) (float64, bool)
	format func(float64) string
}

func firstServer(pick func(ServerUsage) (float64, bool)) func(Result) (float64, bool) {
	return func(r Result) (float64, bool) {
		if len(r.Server) == 0 {
			return 0, false
		}
		return pick(r.Server[0])
	}
}

var runFigures = []runFigure{
	{"Startup", firstServer(func(s ServerUsage) (float64, bool) {
		if s.StartupS == nil {
			return 0, false
		}
		return *s.StartupS * 1e6, true
	}), formatTimeUs},
	{"Idle RSS", firstServer(func(s ServerUsage) (float64, bool) { return float64(s.RSSBytes.Idle), true }), FormatBytes},
	{"Peak RSS", firstServer(func(s ServerUsage) (float64, bool) { return float64(s.RSSBytes.Peak), true }), FormatBytes},
	{"RSS after load", firstServer(func(s ServerUsage) (float64, bool) { return float64(s.RSSBytes.After), true }), FormatBytes},
	{"Server CPU/request", firstServer(func(s ServerUsage) (float64, bool) { return s.CPUUsPerRequest, true }), formatTimeUs},
	{"Requests/sec", func(r Result) (float64, bool) { return r.RequestsPerS, true }, func(v float64) string { return fmt.Sprintf("%.2f", v) }},
	{"Latency p50", func(r Result) (float64, bool) { return r.Latency.P50, r.Requests > 0 }, formatTimeUs},
	{"Latency p99", func(r Result) (float64, bool) { return r.Latency.P99, r.Requests > 0 }, formatTimeUs},
	{"Errors", func(r Result) (float64, bool) {
		return float64(r.Errors.Socket() + r.Errors.Status + r.Errors.Validation), true
	}, func(v float64) string { return fmt.Sprintf("%.0f", v) }},
}

// runRows summarises each figure over the runs: min, median, max.
func runRows(rs []Result) [][]string {
	var rows [][]string
	for _, f := range runFigures {
		vs, ok := sideValues(rs, comparedFigure(f))
		if !ok {
			continue
		}
		rows = append(rows, []string{f.name, f.format(slices.Min(vs)), f.format(Median(vs)), f.format(slices.Max(vs))})
	}
	return rows
}

// spanOf describes a figure over the runs as "median (min–max, N runs)".
func spanOf(rs []Result, name string) (string, bool) {
	for _, row := range runRows(rs) {
		switch {
		case row[0] != name:
		case len(rs) == 1:
			return row[2], true
		default:
			return fmt.Sprintf("%s (%s–%s, %d runs)", row[2], row[1], row[3], len(rs)), true
		}
	}
	return "", false
}

// writeRunsText prints the runs table after pummel's other lines.
func writeRunsText(ew *Printer, rs []Result) {
	if len(rs) < 2 {
		return
	}
	ew.Printf("\nRuns: %d fresh server processes\n", len(rs))
	ew.Printf("  %-20s %12s %12s %12s\n", "", "min", "median", "max")
	for _, row := range runRows(rs) {
		ew.Printf("  %-20s %12s %12s %12s\n", row[0], row[1], row[2], row[3])
	}
}
