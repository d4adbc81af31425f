package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/figure"
)

// comparedFigure is one row of a comparison: a figure of stats/figure's
// catalogue (read there, as thresholds and --max-regression read it) and
// how to print it.
type comparedFigure struct {
	name   string
	fig    figure.Figure
	format func(float64) string
}

// row names a figure of the catalogue for a table.
func row(name, fig string, format func(float64) string) comparedFigure {
	return comparedFigure{name, figure.Must(fig), format}
}

var (
	requestsPerSFigure = row("Requests/sec", "rps", FormatRate)
	errorsFigure       = row("Errors", "errors", FormatCountOf)
	serverCPUFigure    = row("Server CPU/request", "server_cpu_per_request", FormatTime)
)

var comparedFigures = []comparedFigure{
	requestsPerSFigure,
	row("Latency p50", "p50", FormatTime),
	row("Latency p90", "p90", FormatTime),
	row("Latency p99", "p99", FormatTime),
	row("Latency max", "max", FormatTime),
	errorsFigure,
	row("Server startup", "startup", FormatTime),
	row("Server RSS idle", "server_rss_idle", FormatBytes),
	row("Server RSS peak", "server_rss_peak", FormatBytes),
	serverCPUFigure,
}

// comparisonRows computes, per figure present on both sides, the median of
// each side (with its min–max spread when a side has several results) and
// the ratio NEW/BASE, as benchstat shows a side-by-side view. A side's
// results (or runs) that lack a figure are left out of it and counted.
func comparisonRows(base, next []stats.Result) [][]string {
	var rows [][]string
	for _, f := range comparedFigures {
		b, lackB := f.fig.Gather(base)
		n, lackN := f.fig.Gather(next)
		if len(b) == 0 || len(n) == 0 {
			continue
		}
		ratio := "~"
		if mb := stats.Median(b); mb != 0 {
			ratio = fmt.Sprintf("%.2f×", stats.Median(n)/mb)
		}
		rows = append(rows, []string{f.name, sideText(b, lackB, f.format), sideText(n, lackN, f.format), ratio})
	}
	return rows
}

// sideText is a side's median, with its spread over several samples and
// how many results lacked the figure.
func sideText(vs []float64, lacking int, format func(float64) string) string {
	var notes []string
	if len(vs) > 1 {
		notes = append(notes, fmt.Sprintf("%s–%s, n=%d", format(slices.Min(vs)), format(slices.Max(vs)), len(vs)))
	}
	if lacking > 0 {
		notes = append(notes, fmt.Sprintf("missing in %d", lacking))
	}
	s := format(stats.Median(vs))
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, ", ") + ")"
	}
	return s
}

// WriteComparison writes base and next side by side as an aligned text
// table with the ratio NEW/BASE of every figure both have.
func WriteComparison(w io.Writer, base, next []stats.Result) error {
	rows := append([][]string{{"", "base", "new", "new/base"}}, comparisonRows(base, next)...)
	widths := make([]int, 4)
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], len([]rune(cell)))
		}
	}
	ew := NewPrinter(w)
	for _, row := range rows {
		var b strings.Builder
		for i, cell := range row {
			b.WriteString(cell + strings.Repeat(" ", widths[i]-len([]rune(cell))+2))
		}
		ew.Printf("%s\n", strings.TrimRight(b.String(), " "))
	}
	return ew.Err()
}

// WriteComparisonMarkdown writes the same comparison as a markdown table.
func WriteComparisonMarkdown(w io.Writer, base, next []stats.Result) error {
	return MarkdownTable(w, []string{"Metric", "Base", "New", "New/Base"}, []string{"---", "---:", "---:", "---:"}, comparisonRows(base, next))
}
