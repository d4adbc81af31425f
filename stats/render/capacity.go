package render

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/figure"
)

// WriteCapacityHeader writes what a capacity search runs: "Capacity
// search @ URL within p99<50ms, errors<0.1%" and how, as the search starts.
func WriteCapacityHeader(w io.Writer, c stats.Config, slo []string, s stats.Search) error {
	ew := NewPrinter(w)
	writeCapacityHeader(ew, c, slo, s)
	if ew.Err() != nil {
		return fmt.Errorf("writing the header: %w", ew.Err())
	}
	return nil
}

func writeCapacityHeader(ew *Printer, c stats.Config, slo []string, s stats.Search) {
	ew.Printf("Capacity search @ %s within %s\n", c.URL, strings.Join(slo, ", "))
	from := "from " + FormatRateWhole(s.From) + " req/s"
	if s.To == 0 && s.Start == 0 {
		from = "from a quarter of the probe's throughput (" + FormatRateWhole(s.From) + " req/s at the lowest)"
	}
	to := "to the probe's throughput × 1.5"
	if s.To > 0 {
		to = "to " + FormatRateWhole(s.To) + " req/s"
	}
	ew.Printf("  %d threads and %d connections; steps of %s after a %s warm-up, %s %s, precision %g%%, 95%% confidence\n",
		c.Threads, c.Connections, testDuration(s.StepS), testDuration(s.StepWarmupS), from, to, 100*s.Precision)
}

// CapacityStepLine is one step as it ends: "step 3  400 req/s  achieved
// 399.8  p50 1.20ms  p99 3.40ms  p99.9 5.10ms  errors 0  late 0.0%
// client CPU 12%  pass".
func CapacityStepLine(n int, st stats.Result) string {
	rate := "probe (closed loop)"
	if st.TargetRate > 0 {
		rate = FormatRateWhole(st.TargetRate) + " req/s"
	}
	if st.StepResult != nil && st.Retest {
		rate += " again"
	}
	achieved := st.AchievedRate
	if st.TargetRate == 0 {
		achieved = st.RequestsPerS
	}
	parts := []string{fmt.Sprintf("step %2d", n), rate, "achieved " + FormatRateWhole(achieved)}
	if l := st.Latency; l != nil {
		parts = append(parts, "p50 "+FormatTime(l.P50), "p99 "+FormatTime(l.P99), "p99.9 "+FormatTime(l.P999))
	} else {
		parts = append(parts, "no response")
	}
	parts = append(parts, "errors "+FormatCount(st.Errors.Total()))
	if st.TargetRate > 0 {
		parts = append(parts, fmt.Sprintf("late %.1f%%", 100*st.LateShare()))
	}
	parts = append(parts, fmt.Sprintf("client CPU %.0f%%", st.Client.CPUPercent))
	if st.StepResult != nil && st.TargetRate > 0 && st.Verdict != stats.VerdictInterrupted {
		judged := "judged on " + FormatCount(st.Samples)
		if st.Extensions > 0 {
			judged += fmt.Sprintf(" over %s", testDuration(st.DurationS))
		}
		parts = append(parts, judged)
	}
	if st.StepResult != nil {
		verdict := st.Verdict
		if st.Why != "" {
			verdict += " (" + st.Why + ")"
		}
		parts = append(parts, verdict)
	}
	return strings.Join(parts, "  ")
}

// CapacityVerdict is the answer in one line: "Capacity: 11,400 req/s
// within p99<50ms, errors<0.1% (confirmed over 30s: p99 6.30ms); 11,600
// req/s failed: p99 212ms >= 50ms".
func CapacityVerdict(r stats.Result) string {
	c := r.Capacity
	if c == nil {
		return ""
	}
	slo := strings.Join(c.Thresholds, ", ")
	if c.Stopped != "" {
		if c.PassRate == nil {
			return fmt.Sprintf("Capacity: unknown: the search stopped after %d steps: %s", len(r.Steps), c.Stopped)
		}
		return fmt.Sprintf("Capacity: the search stopped after %d steps: %s; at least %s req/s within %s passed before", len(r.Steps), c.Stopped, FormatRateWhole(*c.PassRate), slo)
	}
	if r.Interrupted {
		if c.PassRate == nil {
			return "Capacity: unknown: interrupted before any rate passed " + slo
		}
		return fmt.Sprintf("Capacity: interrupted: at least %s req/s within %s, the highest rate that passed before", FormatRateWhole(*c.PassRate), slo)
	}
	if c.Rate == nil {
		if c.LimitedBy == stats.LimitClient {
			return fmt.Sprintf("Capacity: unknown: the client was the limit before any rate passed: %s", c.Why)
		}
		if c.FailInconclusive && c.FailRate != nil {
			return fmt.Sprintf("Capacity: unknown: no step from %s req/s could be judged within %s; up to %s req/s: %s", FormatRateWhole(c.Search.From), slo, FormatRateWhole(*c.FailRate), c.Why)
		}
		return fmt.Sprintf("Capacity: no rate from %s req/s met %s: %s", FormatRateWhole(c.Search.From), slo, c.Why)
	}
	if lowest, ok := lowestUnconfirmed(r); ok && !c.Confirmed {
		return fmt.Sprintf("Capacity: not confirmed: %s req/s passed its step within %s, but every longer confirmation run, down to %s req/s, failed: the server does not hold these rates for %s",
			FormatRateWhole(*c.Rate), slo, FormatRateWhole(lowest), testDuration(c.Search.ConfirmS))
	}
	line := fmt.Sprintf("Capacity: %s req/s within %s", FormatRateWhole(*c.Rate), slo)
	if c.LimitedBy != stats.LimitServer {
		line = fmt.Sprintf("Capacity: at least %s req/s within %s", FormatRateWhole(*c.Rate), slo)
	}
	line += confirmation(r)
	switch {
	case c.LimitedBy == stats.LimitClient:
		line += fmt.Sprintf("; the client was the limit above it: %s", c.Why)
	case c.LimitedBy == stats.LimitRange && c.PassRate != nil && *c.PassRate < c.Search.To:
		line += fmt.Sprintf("; every rate tried passed, and --max-steps %d ended the search below --to %s req/s", c.Search.MaxSteps, FormatRateWhole(c.Search.To))
	case c.LimitedBy == stats.LimitRange:
		line += fmt.Sprintf("; every rate tried up to %s req/s passed", FormatRateWhole(c.Search.To))
	case c.FailRate != nil && c.FailInconclusive:
		line += fmt.Sprintf("; %s req/s was inconclusive: %s", FormatRateWhole(*c.FailRate), c.Why)
	case c.FailRate != nil:
		line += fmt.Sprintf("; %s req/s failed: %s", FormatRateWhole(*c.FailRate), c.Why)
	}
	return line
}

// CapacityBracket says what the answer is worth in one line: the steps
// run, the bracket the search reached and whether it is within the
// precision asked ("Search: 9 steps; the capacity lies between 11,400
// req/s (passed) and 11,600 (failed), within the 2% asked"); "" for a
// search that did not end on its own (stopped, interrupted).
func CapacityBracket(r stats.Result) string {
	c := r.Capacity
	if c == nil || c.EndedBy == "" {
		return ""
	}
	line := fmt.Sprintf("Search: %d steps", c.StepsRun)
	if c.StepsRun == 1 {
		line = "Search: 1 step"
	}
	precision := FormatSignificant(100*c.Search.Precision) + "%"
	switch {
	case c.PassRate != nil && c.FailRate != nil:
		upper := "failed"
		if c.FailInconclusive {
			upper = "inconclusive"
		}
		line += fmt.Sprintf("; the capacity lies between %s req/s (passed) and %s (%s)", FormatRateWhole(*c.PassRate), FormatRateWhole(*c.FailRate), upper)
	case c.PassRate != nil:
		line += fmt.Sprintf("; the capacity is at least %s req/s (passed)", FormatRateWhole(*c.PassRate))
	}
	switch {
	case c.PrecisionReached:
		line += ", within the " + precision + " asked"
	case c.PassRate != nil:
		line += ", not within the " + precision + " asked: " + endedBy(c)
	default:
		line += ": " + endedBy(c)
	}
	if c.Confirmed && c.Rate != nil && c.PassRate != nil && *c.Rate < *c.PassRate {
		line += fmt.Sprintf("; confirmed lower, at %s req/s: the longer runs above it failed", FormatRateWhole(*c.Rate))
	}
	return line
}

// endedBy says in words what ended a search short of its precision.
func endedBy(c *stats.Capacity) string {
	switch c.EndedBy {
	case stats.EndedMaxSteps:
		return fmt.Sprintf("--max-steps %d ended it", c.Search.MaxSteps)
	case stats.EndedTo:
		return fmt.Sprintf("every rate up to --to %s req/s passed", FormatRateWhole(c.Search.To))
	case stats.EndedClient:
		return "the client was the limit"
	case stats.EndedFrom:
		return fmt.Sprintf("no rate down to --from %s req/s passed", FormatRateWhole(c.Search.From))
	}
	return "the bracket met the precision"
}

// CapacityPrecisionWarning is the warning of a search whose steps ended
// before its bracket met the precision, other than by passing every rate
// up to --to: "" for one that met it.
func CapacityPrecisionWarning(c stats.Capacity) string {
	if c.PrecisionReached || c.PassRate == nil || c.FailRate == nil {
		return ""
	}
	return fmt.Sprintf("the search ended before its %s precision (%s): the capacity is only known to lie between %s and %s req/s",
		FormatSignificant(100*c.Search.Precision)+"%", endedBy(&c), FormatRateWhole(*c.PassRate), FormatRateWhole(*c.FailRate))
}

// lowestUnconfirmed is the lowest rate a confirmation run failed at;
// ok is false when none failed.
func lowestUnconfirmed(r stats.Result) (rate float64, ok bool) {
	for _, st := range r.Steps {
		if st.StepResult != nil && st.Verdict == stats.VerdictNotConfirmed && (!ok || st.TargetRate < rate) {
			rate, ok = st.TargetRate, true
		}
	}
	return rate, ok
}

// confirmation says how the confirmation run went, if there was one.
func confirmation(r stats.Result) string {
	c := r.Capacity
	switch {
	case c.Search.ConfirmS == 0:
		return " (not confirmed: --confirm 0)"
	case c.Confirmed && r.Latency != nil:
		return fmt.Sprintf(" (confirmed over %s: p99 %s)", testDuration(c.Search.ConfirmS), FormatTime(r.Latency.P99))
	case c.Confirmed:
		return fmt.Sprintf(" (confirmed over %s)", testDuration(c.Search.ConfirmS))
	}
	return " (not confirmed: the confirmation runs failed)"
}

// WriteCapacityText writes a capacity search as text: the header (unless
// it was written as the search started), a line per step and the verdict.
func WriteCapacityText(w io.Writer, r stats.Result, skipHeader bool) error {
	ew := NewPrinter(w)
	if !skipHeader && r.Capacity != nil {
		writeCapacityHeader(ew, r.Config, r.Capacity.Thresholds, r.Capacity.Search)
	}
	if !skipHeader {
		for i, st := range r.Steps {
			ew.Printf("%s\n", CapacityStepLine(i+1, st))
		}
	}
	for _, w := range r.Warnings {
		ew.Printf("Warning: %s\n", OneLine(w))
	}
	if r.Interrupted {
		ew.Printf("Interrupted: the search stopped after %d steps\n", len(r.Steps))
	}
	if v := CapacityVerdict(r); v != "" {
		ew.Printf("%s\n", v)
	}
	if b := CapacityBracket(r); b != "" {
		ew.Printf("%s\n", b)
	}
	if ew.Err() != nil {
		return fmt.Errorf("writing the capacity result: %w", ew.Err())
	}
	return nil
}

// WriteCapacityMarkdown writes a capacity search ready for a
// BENCHMARKS.md: the verdict, a table of the steps by rate, the command
// and the environment.
func WriteCapacityMarkdown(w io.Writer, r stats.Result) error {
	ew := NewPrinter(w)
	ew.Printf("## %s\n\n", strings.TrimSpace("Capacity of "+r.Config.Method+" "+r.Config.URL))
	if v := CapacityVerdict(r); v != "" {
		ew.Printf("%s\n\n", strings.TrimPrefix(v, "Capacity: "))
	}
	if b := CapacityBracket(r); b != "" {
		ew.Printf("%s\n\n", strings.TrimPrefix(b, "Search: "))
	}
	header := []string{"Rate (req/s)", "Achieved", "Samples", "p50", "p90", "p99", "p99.9", "Errors"}
	aligns := []string{"---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"}
	server := len(r.Server) > 0
	if server {
		header = append(header, "Server CPU/request", "Server RSS peak")
		aligns = append(aligns, "---:", "---:")
	}
	header, aligns = append(header, "Outcome"), append(aligns, "---")
	ew.Table(header, aligns, capacityRows(r.Steps, server))
	for _, w := range r.Warnings {
		ew.Printf("\n> %s\n", OneLine(w))
	}
	return finishMarkdown(ew, r)
}

// capacityRows are the steps measured at a rate, by rate (the probe
// left out), then in the order run.
func capacityRows(steps []stats.Result, server bool) [][]string {
	var open []stats.Result
	for _, st := range steps {
		if st.TargetRate > 0 {
			open = append(open, st)
		}
	}
	slices.SortStableFunc(open, func(a, b stats.Result) int { return cmp.Compare(a.TargetRate, b.TargetRate) })
	rows := make([][]string, 0, len(open))
	for _, st := range open {
		samples := FormatCount(st.Requests + st.Errors.Socket())
		if st.StepResult != nil {
			samples = FormatCount(st.Samples)
		}
		row := []string{FormatRateWhole(st.TargetRate), FormatRateWhole(st.AchievedRate), samples}
		for _, p := range []func(stats.Latency) float64{
			func(l stats.Latency) float64 { return l.P50 }, func(l stats.Latency) float64 { return l.P90 },
			func(l stats.Latency) float64 { return l.P99 }, func(l stats.Latency) float64 { return l.P999 },
		} {
			row = append(row, latencyCell(st.Latency, p))
		}
		row = append(row, FormatCount(st.Errors.Total()))
		if server {
			row = append(row, serverCells(st)...)
		}
		outcome := ""
		if st.StepResult != nil {
			outcome = st.Verdict
		}
		rows = append(rows, append(row, outcome))
	}
	return rows
}

func latencyCell(l *stats.Latency, pick func(stats.Latency) float64) string {
	if l == nil {
		return "-"
	}
	return FormatTime(pick(*l))
}

// serverCells are a step's server CPU per request and peak RSS, each the
// worst watched process's, as every output reads a server figure.
func serverCells(st stats.Result) []string {
	cells := []string{"-", "-"}
	if vs := figure.Must("server_cpu_per_request").Samples(st); len(vs) > 0 {
		cells[0] = FormatTime(vs[0])
	}
	if vs := figure.Must("server_rss_peak").Samples(st); len(vs) > 0 {
		cells[1] = FormatBytes(vs[0])
	}
	return cells
}

// FormatRateWhole formats a rate as a whole number with commas between
// thousands ("11,400"), or with up to two decimals below 100 ("12.5").
func FormatRateWhole(f float64) string {
	if f < 100 {
		return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", f), "0"), ".")
	}
	return FormatCount(int64(f + 0.5))
}
