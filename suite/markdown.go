package suite

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/pummel-dev/pummel/internal/english"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/render"
)

// WriteMarkdown writes r as GitHub markdown ready to paste into a
// BENCHMARKS.md: a startup and idle-RSS table over the modes, a latency
// table per operation with a row per mode, how each figure is defined, and
// the environment.
func WriteMarkdown(w io.Writer, r *Result) error {
	mw := &markdownWriter{render.NewPrinter(w)}
	mw.Printf("## %s\n\n%s\n", render.OneLine(r.Name), runsSentence(r))
	mw.notes(r)
	mw.Printf("\n### Startup and idle memory\n\n")
	mw.Table([]string{"Mode", "Runs", "Startup min", "Startup median", "Startup max", "Idle RSS min", "Idle RSS median", "Idle RSS max", "RSS after (median)"},
		[]string{"---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"}, modeRows(r.Summary.Modes))
	mw.Printf("\nStartup runs from spawning the server to its first good response on the ready URL, polled about every 1 ms. " +
		"Idle RSS is the server's resident set size after the settle time, before the first operation: the median of 5 samples 100 ms apart. " +
		"RSS after is sampled after the last operation. Min, median and max are over the runs.\n")
	for _, op := range r.Operations {
		mw.operation(r, op)
	}
	mw.Printf("\nLatency runs from writing a request to reading its whole response. Percentiles pool every measured response of every run " +
		"(histograms merged, never averaged); requests/s is the median of the per-run rates; server CPU/request is the server's user + system " +
		"CPU time during the operation over its responses (median over runs); peak RSS is the highest sample during the operation. " +
		"Errors are requests that failed at the socket (connect, read, write, timeout); check failures are responses that failed a check.\n")
	mw.environment(r.Environment)
	if mw.Err() != nil {
		return fmt.Errorf("writing the suite's markdown: %w", mw.Err())
	}
	return nil
}

// runsSentence says how the runs were made.
func runsSentence(r *Result) string {
	if len(r.Modes) < 2 {
		return fmt.Sprintf("%s, each a fresh server process. Plan: `%s`.", english.Plural(r.RunsPerMode, "run"), r.PlanFile)
	}
	order := slices.Repeat(r.Modes, min(2, r.RunsPerMode))
	return fmt.Sprintf("%s per mode, each a fresh server process, interleaved across modes (%s, …). Plan: `%s`.",
		english.Plural(r.RunsPerMode, "run"), strings.Join(order, ", "), r.PlanFile)
}

// notes states what the reader must know before the figures.
func (mw *markdownWriter) notes(r *Result) {
	if r.Interrupted {
		mw.Printf("\n**Interrupted:** the suite was stopped after %s; the figures cover those.\n", english.Plural(len(r.Runs), "run"))
	}
	if r.Error != "" {
		mw.Printf("\n**Stopped early:** %s\n", render.OneLine(r.Error))
	}
	if r.CheckFailures > 0 {
		mw.Printf("\n**Check failures: %s** (see the operations below).\n", render.FormatCount(r.CheckFailures))
	}
}

func modeRows(ms []ModeSummary) [][]string {
	var rows [][]string
	for _, m := range ms {
		if m.Runs == 0 {
			rows = append(rows, []string{m.Mode, "0", "–", "–", "–", "–", "–", "–", "–"})
			continue
		}
		st, idle := m.StartupS, m.IdleRSSBytes
		rows = append(rows, []string{m.Mode, fmt.Sprint(m.Runs),
			render.FormatTime(1e6 * (st.Min)), render.FormatTime(1e6 * (st.Median)), render.FormatTime(1e6 * (st.Max)),
			render.FormatBytes(idle.Min), render.FormatBytes(idle.Median), render.FormatBytes(idle.Max),
			bytesOrDash(m.RSSAfterBytes.Median)})
	}
	return rows
}

// bytesOrDash formats a byte count, or "–" for none measured.
func bytesOrDash(n float64) string {
	if n == 0 {
		return "–"
	}
	return render.FormatBytes(n)
}

// operation writes one operation's heading, request, load and table.
func (mw *markdownWriter) operation(r *Result, op OperationInfo) {
	mw.Printf("\n### %s\n\n`%s %s`: %s.", render.OneLine(op.Name), op.Method, render.OneLine(op.URL), op.Load)
	if op.DependsOn != "" {
		mw.Printf(" Depends on %s: skipped in a run where %s failed a check or was skipped.", op.DependsOn, op.DependsOn)
	}
	mw.Printf("\n\n")
	var rows [][]string
	var causes, warnings, thresholds []string
	for _, s := range r.Summary.Operations {
		if s.Operation != op.Name {
			continue
		}
		rows = append(rows, operationRow(s))
		for _, t := range s.Thresholds {
			thresholds = append(thresholds, fmt.Sprintf("- %s: `%s`: %s, %s", s.Mode, t.Expr, t.Value, t.Outcome()))
		}
		for _, cause := range slices.Sorted(maps.Keys(s.CheckCauses)) {
			causes = append(causes, fmt.Sprintf("- %s: %s × %s", s.Mode, render.FormatCount(s.CheckCauses[cause]), cause))
		}
		for _, w := range s.Warnings {
			warnings = append(warnings, fmt.Sprintf("- %s: %s", s.Mode, render.OneLine(w)))
		}
	}
	mw.Table([]string{"Mode", "Requests", "p50", "p90", "p99", "Max", "Requests/s", "Server CPU/request", "Peak RSS", "Errors", "Check failures"},
		[]string{"---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"}, rows)
	mw.list("Thresholds", thresholds)
	mw.list("Failed checks", causes)
	mw.list("Warnings", warnings)
}

// list writes a titled bullet list, if it has items.
func (mw *markdownWriter) list(title string, items []string) {
	if len(items) > 0 {
		mw.Printf("\n%s:\n\n%s\n", title, strings.Join(items, "\n"))
	}
}

func operationRow(s OperationSummary) []string {
	if s.Runs == 0 {
		return []string{s.Mode, requestsCell(s), "–", "–", "–", "–", "–", "–", "–", "–", "–"}
	}
	row := append([]string{s.Mode, requestsCell(s)}, latencyCells(s.Latency)...)
	// The CPU time is the median of the runs', each to one clock tick over
	// its requests.
	cpu := render.FormatCPUPerRequest(s.ServerCPUUsPerRequest, s.Requests/int64(s.Runs))
	return append(row, render.FormatRate(s.RequestsPerS), cpu, render.FormatBytes(float64(s.PeakRSSBytes)),
		render.FormatCount(s.Errors), render.FormatCount(s.CheckFailures))
}

// latencyCells are an operation's p50, p90, p99 and max, each "-" when no
// request was answered.
func latencyCells(l *stats.Latency) []string {
	v, format := render.LatencyFormatter(l)
	return []string{format(v.P50), format(v.P90), format(v.P99), format(v.Max)}
}

// requestsCell is the operation's count of measured responses, and the
// runs that skipped it.
func requestsCell(s OperationSummary) string {
	switch {
	case s.Runs == 0:
		return fmt.Sprintf("skipped in %s", english.Plural(s.SkippedRuns, "run"))
	case s.SkippedRuns > 0:
		return fmt.Sprintf("%s (skipped in %s)", render.FormatCount(s.Requests), english.Plural(s.SkippedRuns, "run"))
	}
	return render.FormatCount(s.Requests)
}

// environment writes the machine and the server's binary.
func (mw *markdownWriter) environment(e stats.Environment) {
	mw.Printf("\n**Environment:** %s\n", render.EnvironmentLine(e))
	if b := e.Binary; b != nil {
		line := fmt.Sprintf("`%s`, %s, SHA-256 %.12s…", b.Path, render.FormatBytes(float64(b.SizeBytes)), b.SHA256)
		if b.GitRevision != "" {
			line += fmt.Sprintf(", git %.12s", b.GitRevision)
			if b.GitDirty {
				line += " with uncommitted changes"
			}
		}
		mw.Printf("\n**Server binary:** %s\n", line)
	}
}
