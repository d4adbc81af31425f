package suite

import (
	"fmt"
	"io"
	"strings"

	"github.com/pummel-dev/pummel/internal/english"
	"github.com/pummel-dev/pummel/stats/render"
)

// WriteText writes a short summary of r for the terminal: the modes'
// startup and idle RSS, each operation's latency per mode with its
// thresholds and warnings, and the check failures.
func WriteText(w io.Writer, r *Result) error {
	mw := &markdownWriter{render.NewPrinter(w)}
	mw.Printf("%s: %s per mode; modes %s\n\n", r.Name, english.Plural(r.RunsPerMode, "run"), strings.Join(r.Modes, ", "))
	rows := [][]string{{"mode", "runs", "startup", "(min–max)", "idle RSS", "(min–max)"}}
	for _, m := range r.Summary.Modes {
		st, idle := m.StartupS, m.IdleRSSBytes
		if m.Runs == 0 {
			rows = append(rows, []string{m.Mode, "0", "–", "", "–", ""})
			continue
		}
		rows = append(rows, []string{m.Mode, fmt.Sprint(m.Runs), render.FormatTime(1e6 * (st.Median)), render.FormatTime(1e6*(st.Min)) + "–" + render.FormatTime(1e6*(st.Max)),
			render.FormatBytes(idle.Median), render.FormatBytes(idle.Min) + "–" + render.FormatBytes(idle.Max)})
	}
	mw.aligned(rows)
	for _, op := range r.Operations {
		rows := [][]string{{op.Name, "requests", "p50", "p90", "p99", "max", "req/s", "check failures"}}
		for _, s := range r.Summary.Operations {
			switch {
			case s.Operation != op.Name:
			case s.Runs == 0:
				rows = append(rows, []string{s.Mode, requestsCell(s), "", "", "", "", "", ""})
			default:
				row := append([]string{s.Mode, requestsCell(s)}, latencyCells(s.Latency)...)
				rows = append(rows, append(row, render.FormatRate(s.RequestsPerS), render.FormatCount(s.CheckFailures)))
			}
		}
		mw.Printf("\n")
		mw.aligned(rows)
		mw.operationNotes(r.Summary.Operations, op.Name)
	}
	if r.CheckFailures > 0 {
		mw.Printf("\n%s failed a check\n", english.Plural(int(r.CheckFailures), "response"))
	}
	if mw.Err() != nil {
		return fmt.Errorf("writing the suite's summary: %w", mw.Err())
	}
	return nil
}

// aligned writes rows as columns: the first left-aligned, the others
// right-aligned, two spaces apart.
func (mw *markdownWriter) aligned(rows [][]string) {
	var widths []int
	for _, row := range rows {
		for i, cell := range row {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len([]rune(cell)))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for i, cell := range row {
			pad := strings.Repeat(" ", widths[i]-len([]rune(cell)))
			if i == 0 {
				b.WriteString("  " + cell + pad)
			} else {
				b.WriteString("  " + pad + cell)
			}
		}
		mw.Printf("%s\n", strings.TrimRight(b.String(), " "))
	}
}

// operationNotes writes a line per threshold of an operation, then per warning, in
// each mode: "  fast: threshold p99<20ms ok (1.2ms)", "  slow: warning: …",
// so that a saturated client or a launcher measured in the server's place
// is seen without opening suite.md.
func (mw *markdownWriter) operationNotes(summaries []OperationSummary, op string) {
	for _, s := range summaries {
		if s.Operation != op {
			continue
		}
		for _, t := range s.Thresholds {
			mw.Printf("  %s: threshold %s %s (%s)\n", s.Mode, t.Expr, t.Outcome(), t.Value)
		}
		for _, w := range s.Warnings {
			mw.Printf("  %s: warning: %s\n", s.Mode, render.OneLine(w))
		}
	}
}
