package render

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/pummel-dev/pummel/internal/units"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// TextOptions chooses what WriteText prints beyond wrk's default report.
type TextOptions struct {
	// Latency adds wrk's "Latency Distribution" block (wrk's --latency).
	Latency bool
	// SkipHeader leaves out the header (WriteHeader), which was written
	// to the same place when the load started.
	SkipHeader bool
}

// WriteText writes r as wrk prints it, line for line, so that scripts that
// read wrk's output read pummel's: the header, the Thread Stats table, the
// latency distribution with opts.Latency, the totals, socket errors,
// non-2xx responses, Requests/sec and Transfer/sec. pummel's own lines
// (status codes, error causes, server usage, warnings) follow wrk's.
func WriteText(w io.Writer, r stats.Result, opts TextOptions) error {
	ew := NewPrinter(w)
	if !opts.SkipHeader {
		writeHeader(ew, r.Config)
	}
	writeThreadStats(ew, r)
	if opts.Latency {
		writeLatencyDistribution(ew, r.Latency)
	}
	writeWrkTotals(ew, r)
	writeStatusCodes(ew, r.Status)
	writeErrorDetails(ew, r)
	writeTargetsText(ew, r.Targets)
	writeConnections(ew, r)
	writeStartText(ew, r)
	for _, s := range r.Server {
		ew.Printf("Server pid %d: %s\n", s.PID, serverSummary(s, r.Requests))
	}
	if r.Interrupted {
		ew.Printf("Interrupted: results so far\n")
	}
	for _, warning := range r.Warnings {
		ew.Printf("Warning: %s\n", OneLine(warning))
	}
	writeThresholdsText(ew, r.Thresholds)
	writeMergedCommands(ew, r.Config.MergedCommands)
	writeOpenLoop(ew, r)
	writeRunsText(ew, r.Runs)
	writeShardsText(ew, r.Shards)
	if ew.Err() != nil {
		return fmt.Errorf("writing text result: %w", ew.Err())
	}
	return nil
}

func writeThreadStats(ew *Printer, r stats.Result) {
	ew.Printf("  Thread Stats%6s%11s%8s%12s\n", "Avg", "Stdev", "Max", "+/- Stdev")
	if l := r.Latency; l != nil {
		writeStatsRow(ew, "Latency", l.Mean, l.Stdev, l.Max, l.WithinStdevPct, FormatTime)
	} else {
		ew.Printf("    %-10s%8s%10s%9s%9s\n", "Latency", absent, absent, absent, absent)
	}
	t := r.ThreadRate
	writeStatsRow(ew, "Req/Sec", t.Mean, t.Stdev, t.Max, t.WithinStdevPct, units.Metric)
}

// writeStatsRow is wrk's print_stats.
func writeStatsRow(ew *Printer, name string, mean, stdev, maxv, within float64, format func(float64) string) {
	ew.Printf("    %-10s%s%s%s%8.2f%%\n", name,
		printUnits(mean, format, 8), printUnits(stdev, format, 10), printUnits(maxv, format, 9), within)
}

// writeLatencyDistribution is wrk's print_stats_latency.
func writeLatencyDistribution(ew *Printer, l *stats.Latency) {
	ew.Printf("  Latency Distribution\n")
	v, _ := LatencyFormatter(l)
	for _, p := range []struct {
		pct float64
		us  float64
	}{{50, v.P50}, {75, v.P75}, {90, v.P90}, {99, v.P99}} {
		cell := fmt.Sprintf("%10s", absent)
		if l != nil {
			cell = printUnits(p.us, FormatTime, 10)
		}
		ew.Printf("%7.0f%%%s\n", p.pct, cell)
	}
}

// writeWrkTotals prints wrk's totals block. Its "N requests in T, X read"
// line prints X in MiB (FormatBytes), not wrk's "MB": of the text that is
// otherwise wrk's line for line, only the Transfer/sec line keeps wrk's
// spelling (docs/output.md#units). The goldens (TestRenderersGolden) pin
// both units.
func writeWrkTotals(ew *Printer, r stats.Result) {
	ew.Printf("  %d requests in %s, %s read\n", r.Requests, FormatTime(r.DurationS*1e6), FormatBytes(float64(r.BytesRead)))
	if e := r.Errors; e.Socket() > 0 {
		ew.Printf("  Socket errors: connect %d, read %d, write %d, timeout %d\n", e.Connect, e.Read, e.Write, e.Timeout)
	}
	if r.Errors.Status > 0 {
		ew.Printf("  Non-2xx or 3xx responses: %d\n", r.Errors.Status)
	}
	ew.Printf("Requests/sec: %9.2f\n", r.RequestsPerS)
	ew.Printf("Transfer/sec: %11s\n", wrkBytes(bytesPerSecond(r)))
}

// bytesPerSecond is the read rate, 0 rather than NaN or Inf for a run that
// measured no time.
func bytesPerSecond(r stats.Result) float64 {
	if r.DurationS <= 0 {
		return 0
	}
	return float64(r.BytesRead) / r.DurationS
}

func writeStatusCodes(ew *Printer, status map[string]int64) {
	if len(status) == 0 {
		return
	}
	items := make([]string, 0, len(status))
	for _, code := range sortedCodes(status) {
		items = append(items, fmt.Sprintf("%s x %d", code, status[code]))
	}
	ew.Printf("Status codes: %s\n", strings.Join(items, ", "))
}

// sortedCodes returns the status codes in numeric order (codes that are not
// numbers, which pummel never writes, sort by text).
func sortedCodes(status map[string]int64) []string {
	codes := make([]string, 0, len(status))
	for code := range status {
		codes = append(codes, code)
	}
	sort.Slice(codes, func(i, j int) bool {
		a, errA := strconv.Atoi(codes[i])
		b, errB := strconv.Atoi(codes[j])
		if errA != nil || errB != nil || a == b {
			return codes[i] < codes[j]
		}
		return a < b
	})
	return codes
}

func writeErrorDetails(ew *Printer, r stats.Result) {
	if r.Errors.Validation > 0 {
		ew.Printf("Validation errors: %d\n", r.Errors.Validation)
	}
	classes := causeClasses(r.ErrorCauses)
	if len(classes) == 0 {
		return
	}
	ew.Printf("Errors by cause:\n")
	for _, class := range classes {
		ew.Printf("  %s: %s\n", class, causeList(r.ErrorCauses[class]))
	}
}

// causeClasses returns the classes that have causes, in ErrorClass order,
// then any class this version does not know, by name.
func causeClasses(causes map[string]map[string]int64) []string {
	var classes, unknown []string
	known := make(map[string]bool, record.NumErrorClasses)
	for c := range record.NumErrorClasses {
		known[c.String()] = true
		if len(causes[c.String()]) > 0 {
			classes = append(classes, c.String())
		}
	}
	for class, m := range causes {
		if !known[class] && len(m) > 0 {
			unknown = append(unknown, class)
		}
	}
	sort.Strings(unknown)
	return append(classes, unknown...)
}

// causeList lists causes most frequent first, ties by name:
// "reset 3, EOF before response 1".
func causeList(causes map[string]int64) string {
	names := make([]string, 0, len(causes))
	for name := range causes {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := causes[names[i]], causes[names[j]]
		if a != b {
			return a > b
		}
		return names[i] < names[j]
	})
	items := make([]string, len(names))
	for i, name := range names {
		items[i] = fmt.Sprintf("%s %d", name, causes[name])
	}
	return strings.Join(items, ", ")
}

func writeConnections(ew *Printer, r stats.Result) {
	if r.Reconnects > 0 {
		ew.Printf("Reconnects: %d\n", r.Reconnects)
	}
	if q := r.QUIC; q != nil && r.Requests > 0 {
		n := float64(r.Requests)
		ew.Printf("QUIC packets per response: %.2f sent, %.2f received; %d lost\n",
			float64(q.PacketsSent)/n, float64(q.PacketsReceived)/n, q.PacketsLost)
	}
	if c := r.Connect; c.Count > 0 {
		ew.Printf("Connect time: mean %s, max %s, %d connects\n", FormatTime(c.Mean), FormatTime(c.Max), c.Count)
	}
	if u := r.Client; u.CPUs > 0 {
		ew.Printf("Client CPU: %s\n", u.Summary())
	}
}

// serverSummary describes one watched process on one line: "RSS idle
// 10.50MiB, peak 48.00MiB, after 31.25MiB; CPU 2.35s, 23.5us/request;
// startup 12.34ms". The CPU time is shown to the clock tick it was
// measured in, spread over the requests.
func serverSummary(s stats.ServerUsage, requests int64) string {
	var parts []string
	if rss := rssSummary(s.RSSBytes); rss != "" {
		parts = append(parts, "RSS "+rss)
	}
	parts = append(parts, fmt.Sprintf("CPU %s, %s/request", FormatCPUSeconds(s.CPUSeconds), FormatCPUPerRequest(s.CPUUsPerRequest, requests)))
	if s.StartupS != nil {
		parts = append(parts, "startup "+FormatTime(*s.StartupS*1e6))
	}
	if s.ExitedDuringLoad {
		parts = append(parts, "exited during load")
	}
	return strings.Join(parts, "; ")
}

// rssSummary lists the RSS samples as "idle 10.50MiB, peak 48.00MiB, after
// 31.25MiB", leaving out the samples that were not taken (0).
func rssSummary(r stats.RSS) string {
	var items []string
	for _, m := range []struct {
		name  string
		bytes int64
	}{{"idle", r.Idle}, {"peak", r.Peak}, {"after", r.After}} {
		if m.bytes > 0 {
			items = append(items, m.name+" "+FormatBytes(float64(m.bytes)))
		}
	}
	return strings.Join(items, ", ")
}

// writeMergedCommands lists, in text, the commands of the results merged.
func writeMergedCommands(ew *Printer, commands []string) {
	if len(commands) == 0 {
		return
	}
	ew.Printf("Merged from %d results:\n", len(commands))
	for _, c := range commands {
		ew.Printf("  %s\n", c)
	}
}
