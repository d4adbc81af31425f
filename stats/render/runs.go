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

// runRow summarises one figure over the runs that have it: name, min,
// median, max, and how many runs lack it; false when no run has it.
func runRow(rs []stats.Result, f comparedFigure) (row []string, lacking int, ok bool) {
	vs, lacking := f.fig.Gather(rs)
	if len(vs) == 0 {
		return nil, 0, false
	}
	return []string{f.name, f.format(slices.Min(vs)), f.format(stats.Median(vs)), f.format(slices.Max(vs))}, lacking, true
}

// runRows summarises each figure over the runs: min, median, max; and
// notes naming each figure some runs lack.
func runRows(rs []stats.Result) (rows [][]string, notes []string) {
	for _, f := range runFigures {
		row, lacking, ok := runRow(rs, f)
		if !ok {
			continue
		}
		rows = append(rows, row)
		if lacking > 0 {
			notes = append(notes, fmt.Sprintf("%s: missing in %d of %d runs, left out", f.name, lacking, len(rs)))
		}
	}
	return rows, notes
}

// spanOf describes a figure over the runs as "median (min–max, N runs)",
// N counting the runs that have it.
func spanOf(rs []stats.Result, name string) (string, bool) {
	i := slices.IndexFunc(runFigures, func(f comparedFigure) bool { return f.name == name })
	if i < 0 {
		return "", false
	}
	row, lacking, ok := runRow(rs, runFigures[i])
	switch {
	case !ok:
		return "", false
	case len(rs) == 1:
		return row[2], true
	case lacking > 0:
		return fmt.Sprintf("%s (%s–%s, %d of %d runs)", row[2], row[1], row[3], len(rs)-lacking, len(rs)), true
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
	rows, notes := runRows(rs)
	for _, row := range rows {
		ew.Printf("  %-20s %12s %12s %12s\n", row[0], row[1], row[2], row[3])
	}
	for _, n := range notes {
		ew.Printf("  %s\n", n)
	}
}

// writeRunsMarkdown writes the runs table, as writeRunsText prints it.
func writeRunsMarkdown(ew *Printer, rs []stats.Result) {
	if len(rs) < 2 {
		return
	}
	ew.Printf("\n**Runs: %d fresh server processes**\n\n", len(rs))
	rows, notes := runRows(rs)
	ew.Table([]string{"Figure", "min", "median", "max"}, []string{"---", "---:", "---:", "---:"}, rows)
	for _, n := range notes {
		ew.Printf("\n%s\n", n)
	}
}
