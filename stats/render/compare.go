package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/pummel-dev/pummel/stats"
)

// comparedFigure is one row of a comparison: how to read the figure from a
// result and how to print it.
type comparedFigure struct {
	name string
	// values reads the figure: one sample, or one per run for a server's
	// figure of --exec --runs; false when the result lacks it.
	values func(stats.Result) ([]float64, bool)
	format func(float64) string
}

// resultFigure is a figure of the result as a whole.
func resultFigure(name string, pick func(stats.Result) float64, format func(float64) string) comparedFigure {
	return comparedFigure{name, func(r stats.Result) ([]float64, bool) { return []float64{pick(r)}, true }, format}
}

func latencyFigure(name string, pick func(stats.Latency) float64) comparedFigure {
	return comparedFigure{name, func(r stats.Result) ([]float64, bool) {
		if r.Latency == nil {
			return nil, false
		}
		return []float64{pick(*r.Latency)}, true
	}, FormatTime}
}

// serverFigure reads a figure of the first watched server, or of each
// run's when the result merges --exec --runs (each run watched its own
// server process, so the merged result has none); pick reports false when
// a server lacks the figure.
func serverFigure(name string, pick func(stats.ServerUsage) (float64, bool), format func(float64) string) comparedFigure {
	return comparedFigure{name, func(r stats.Result) ([]float64, bool) {
		runs := r.Runs
		if len(r.Server) > 0 || len(runs) == 0 {
			runs = []stats.Result{r}
		}
		var vs []float64
		for _, run := range runs {
			if len(run.Server) == 0 {
				return nil, false
			}
			v, ok := pick(run.Server[0])
			if !ok {
				return nil, false
			}
			vs = append(vs, v)
		}
		return vs, true
	}, format}
}

var (
	requestsPerSFigure = resultFigure("Requests/sec", func(r stats.Result) float64 { return r.RequestsPerS }, FormatRate)
	errorsFigure       = resultFigure("Errors", func(r stats.Result) float64 {
		return float64(r.Errors.Total())
	}, FormatCountOf)
	serverCPUFigure = serverFigure("Server CPU/request", func(s stats.ServerUsage) (float64, bool) { return s.CPUUsPerRequest, true }, FormatTime)
)

// startupFigure is the server's startup time (--exec), under the given name.
func startupFigure(name string) comparedFigure {
	return serverFigure(name, func(s stats.ServerUsage) (float64, bool) {
		if s.StartupS == nil {
			return 0, false
		}
		return *s.StartupS * 1e6, true
	}, FormatTime)
}

// idleRSSFigure is the server's RSS before the load, under the given name.
func idleRSSFigure(name string) comparedFigure {
	return serverFigure(name, func(s stats.ServerUsage) (float64, bool) { return float64(s.RSSBytes.Idle), true }, FormatBytes)
}

// peakRSSFigure is the server's peak RSS, under the given name.
func peakRSSFigure(name string) comparedFigure {
	return serverFigure(name, func(s stats.ServerUsage) (float64, bool) { return float64(s.RSSBytes.Peak), true }, FormatBytes)
}

var comparedFigures = []comparedFigure{
	requestsPerSFigure,
	latencyFigure("Latency p50", func(l stats.Latency) float64 { return l.P50 }),
	latencyFigure("Latency p90", func(l stats.Latency) float64 { return l.P90 }),
	latencyFigure("Latency p99", func(l stats.Latency) float64 { return l.P99 }),
	latencyFigure("Latency max", func(l stats.Latency) float64 { return l.Max }),
	errorsFigure,
	startupFigure("Server startup"),
	idleRSSFigure("Server RSS idle"),
	peakRSSFigure("Server RSS peak"),
	serverCPUFigure,
}

// comparisonRows computes, per figure present on both sides, the median of
// each side (with its min–max spread when a side has several results) and
// the ratio NEW/BASE, as benchstat shows a side-by-side view.
func comparisonRows(base, next []stats.Result) [][]string {
	var rows [][]string
	for _, f := range comparedFigures {
		b, okB := sideValues(base, f)
		n, okN := sideValues(next, f)
		if !okB || !okN {
			continue
		}
		ratio := "~"
		if mb := stats.Median(b); mb != 0 {
			ratio = fmt.Sprintf("%.2f×", stats.Median(n)/mb)
		}
		rows = append(rows, []string{f.name, sideText(b, f.format), sideText(n, f.format), ratio})
	}
	return rows
}

// sideValues gathers a figure's samples over a side's results; false when
// one of them lacks it.
func sideValues(rs []stats.Result, f comparedFigure) ([]float64, bool) {
	var all []float64
	for _, r := range rs {
		vs, ok := f.values(r)
		if !ok {
			return nil, false
		}
		all = append(all, vs...)
	}
	return all, len(all) > 0
}

func sideText(vs []float64, format func(float64) string) string {
	s := format(stats.Median(vs))
	if len(vs) > 1 {
		s += fmt.Sprintf(" (%s–%s, n=%d)", format(slices.Min(vs)), format(slices.Max(vs)), len(vs))
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
