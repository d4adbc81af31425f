package render

import (
	"fmt"
	"slices"

	"github.com/pummel-dev/pummel/stats"
)

// runFigures are the figures summarised across runs.
var runFigures = []comparedFigure{
	row("Startup", "startup", FormatTime),
	row("Idle RSS", "server_rss_idle", FormatBytes),
	row("Peak RSS", "server_rss_peak", FormatBytes),
	row("RSS after load", "server_rss_after", FormatBytes),
	serverCPUFigure,
	requestsPerSFigure,
	row("Latency p50", "p50", FormatTime),
	row("Latency p99", "p99", FormatTime),
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
