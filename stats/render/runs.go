package render

import (
	"fmt"
	"slices"

	"github.com/pummel-dev/pummel/stats"
)

// runFigures are the figures summarised across runs.
var runFigures = []comparedFigure{
	startupFigure("Startup"),
	idleRSSFigure("Idle RSS"),
	peakRSSFigure("Peak RSS"),
	serverFigure("RSS after load", func(s stats.ServerUsage) (float64, bool) { return float64(s.RSSBytes.After), true }, FormatBytes),
	serverCPUFigure,
	requestsPerSFigure,
	latencyFigure("Latency p50", func(l stats.Latency) float64 { return l.P50 }),
	latencyFigure("Latency p99", func(l stats.Latency) float64 { return l.P99 }),
	errorsFigure,
}

// runRow summarises one figure over the runs: name, min, median, max;
// false when no run has it.
func runRow(rs []stats.Result, f comparedFigure) ([]string, bool) {
	vs, ok := sideValues(rs, f)
	if !ok {
		return nil, false
	}
	return []string{f.name, f.format(slices.Min(vs)), f.format(stats.Median(vs)), f.format(slices.Max(vs))}, true
}

// runRows summarises each figure over the runs: min, median, max.
func runRows(rs []stats.Result) [][]string {
	var rows [][]string
	for _, f := range runFigures {
		if row, ok := runRow(rs, f); ok {
			rows = append(rows, row)
		}
	}
	return rows
}

// spanOf describes a figure over the runs as "median (min–max, N runs)".
func spanOf(rs []stats.Result, name string) (string, bool) {
	i := slices.IndexFunc(runFigures, func(f comparedFigure) bool { return f.name == name })
	if i < 0 {
		return "", false
	}
	row, ok := runRow(rs, runFigures[i])
	switch {
	case !ok:
		return "", false
	case len(rs) == 1:
		return row[2], true
	}
	return fmt.Sprintf("%s (%s–%s, %d runs)", row[2], row[1], row[3], len(rs)), true
}

// writeRunsText prints the runs table after pummel's other lines.
func writeRunsText(ew *Printer, rs []stats.Result) {
	if len(rs) < 2 {
		return
	}
	ew.Printf("\nRuns: %d fresh server processes\n", len(rs))
	ew.Printf("  %-20s %12s %12s %12s\n", "", "min", "median", "max")
	for _, row := range runRows(rs) {
		ew.Printf("  %-20s %12s %12s %12s\n", row[0], row[1], row[2], row[3])
	}
}

// writeRunsMarkdown writes the runs table, as writeRunsText prints it.
func writeRunsMarkdown(ew *Printer, rs []stats.Result) {
	if len(rs) < 2 {
		return
	}
	ew.Printf("\n**Runs: %d fresh server processes**\n\n", len(rs))
	ew.Table([]string{"Figure", "min", "median", "max"}, []string{"---", "---:", "---:", "---:"}, runRows(rs))
}
