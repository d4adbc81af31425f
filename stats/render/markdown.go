package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/pummel-dev/pummel/internal/english"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// WriteMarkdown writes r as GitHub markdown ready to paste into a
// BENCHMARKS.md: a heading naming the target, a Metric | Result | How
// table, with --runs the spread over the runs, notes (interruption,
// warnings), the latency distribution, the errors when there were any, the
// exact command and the environment the figures were measured in.
func WriteMarkdown(w io.Writer, r stats.Result) error {
	ew := NewPrinter(w)
	ew.Printf("## %s\n\n", markdownTitle(r.Config))
	ew.Table([]string{"Metric", "Result", "How"}, []string{"---", "---", "---"}, metricRows(r))
	writeRunsMarkdown(ew, r.Runs)
	writeNotes(ew, r)
	writeThresholdsMarkdown(ew, r.Thresholds)
	ew.Printf("\n**Latency distribution**\n\n")
	ew.Table([]string{"Percentile", "Latency"}, []string{"---:", "---:"}, distributionRows(r.Latency))
	writeTargetsMarkdown(ew, r.Targets)
	writeShardsMarkdown(ew, r.Shards)
	if rows := errorRows(r); len(rows) > 0 {
		ew.Printf("\n**Errors**\n\n")
		ew.Table([]string{"Class", "Count", "Causes"}, []string{"---", "---:", "---"}, rows)
	}
	return finishMarkdown(ew, r)
}

// finishMarkdown writes what ends every markdown result, the command and
// the environment, and reports the first failed write.
func finishMarkdown(ew *Printer, r stats.Result) error {
	writeCommand(ew, r.Config)
	if env := EnvironmentLine(r.Environment); env != "" {
		ew.Printf("\n**Environment:** %s\n", env)
	}
	if ew.Err() != nil {
		return fmt.Errorf("writing markdown result: %w", ew.Err())
	}
	return nil
}

// markdownTitle is the heading of a markdown result: what was loaded,
// "Load test of GET http://127.0.0.1:8080/".
func markdownTitle(c stats.Config) string {
	if c.URL == "" {
		return "Load test"
	}
	return strings.TrimSpace("Load test of " + c.Method + " " + c.URL)
}

// metricRows are the rows of the Metric | Result | How table.
func metricRows(r stats.Result) [][]string {
	c := r.Config
	l, lat := LatencyFormatter(r.Latency)
	rows := [][]string{
		{"Throughput", fmt.Sprintf("%s req/s (%s requests in %s)", FormatRate(r.RequestsPerS),
			FormatCount(r.Requests), FormatTime(r.DurationS*1e6)), loadShape(c)},
		{"Transfer", FormatBytes(bytesPerSecond(r)) + "/s", fmt.Sprintf("%s read, %s written on the wire, headers and bodies",
			FormatBytes(float64(r.BytesRead)), FormatBytes(float64(r.BytesWritten)))},
		{"Latency p50", lat(l.P50), latencyHow(c)},
		{"Latency p90", lat(l.P90), "percentile over every response (HdrHistogram, 3 significant digits)"},
		{"Latency p99", lat(l.P99), "percentile over every response"},
		{"Latency max", lat(l.Max), "slowest response"},
		{"Errors", ErrorList(r.Errors), "failed requests by class: connect, read, write, timeout, status, validation"},
		{"Non-2xx or 3xx", FormatCount(r.Errors.Status), "responses with HTTP status ≥ 400, as wrk counts them"},
	}
	if len(r.Status) > 0 {
		rows = append(rows, []string{"Status codes", statusSummary(r.Status), "responses by HTTP status"})
	}
	rows = append(rows, openLoopRows(r)...)
	rows = append(rows, runMetricRows(r)...)
	rows = append(rows, shardMetricRows(r)...)
	conns := "keep-alive, held open for the whole run and spread evenly over the threads"
	if !c.KeepAlive {
		conns = "a new connection for each request"
	}
	rows = append(rows, []string{"Connections / threads", fmt.Sprintf("%d / %d", c.Connections, c.Threads), conns})
	if u := r.Client; u.CPUs > 0 {
		rows = append(rows, []string{"Client CPU", u.Summary(),
			"pummel's own user + system CPU time while measuring; at 90% or more the client may be the bottleneck"})
	}
	for _, s := range r.Server {
		rows = append(rows, serverRows(s, r.Requests)...)
	}
	return rows
}

// loadShape says how the load was applied: "closed loop, 64 keep-alive
// connections, 4 threads, 10s".
func loadShape(c stats.Config) string {
	conns := english.Plural(c.Connections, "connection")
	if c.KeepAlive {
		conns = english.Plural(c.Connections, "keep-alive connection")
	}
	var limits []string
	if c.Requests > 0 {
		limits = append(limits, FormatCount(c.Requests)+" requests")
	}
	if c.DurationS > 0 {
		limits = append(limits, testDuration(c.DurationS))
	}
	loop := "closed loop"
	if len(c.Rates) > 0 {
		loop = "open loop at " + strings.Join(c.RateNames(), ", then ") + " requests/s"
		limits = []string{testDuration(c.DurationS) + " per rate"}
	}
	if p := ProtocolName(c); p != "" {
		conns += fmt.Sprintf(" over %s with %s each", p, english.Plural(max(c.Streams, 1), "stream"))
	}
	shape := fmt.Sprintf("%s, %s, %s", loop, conns, english.Plural(c.Threads, "thread"))
	if len(limits) > 0 {
		shape += ", " + strings.Join(limits, " or ")
	}
	if c.WarmupS > 0 {
		shape += ", after a " + testDuration(c.WarmupS) + " warm-up"
	}
	if c.WarmupRequests > 0 {
		shape += fmt.Sprintf(", after %s warm-up requests", FormatCount(c.WarmupRequests))
	}
	if c.Runs > 1 {
		shape += fmt.Sprintf(", in each of %d runs", c.Runs)
	}
	return shape
}

// statusSummary lists the status codes in order: "200 × 8,000, 404 × 3".
func statusSummary(status map[string]int64) string {
	items := make([]string, 0, len(status))
	for _, code := range sortedCodes(status) {
		items = append(items, code+" × "+FormatCount(status[code]))
	}
	return strings.Join(items, ", ")
}

// serverRows describe one watched server process.
func serverRows(s stats.ServerUsage, requests int64) [][]string {
	pid := fmt.Sprintf(" (pid %d)", s.PID)
	var rows [][]string
	if rss := rssSummary(s.RSSBytes); rss != "" {
		rows = append(rows, []string{"Server RSS" + pid, rss,
			"resident set size: idle before the load, peak during it, right after it"})
	}
	rows = append(rows, []string{"Server CPU" + pid,
		fmt.Sprintf("%s, %s per request", FormatCPUSeconds(s.CPUSeconds), FormatCPUPerRequest(s.CPUUsPerRequest, requests)),
		"user + system CPU time of the process during the load, in the kernel's 10 ms clock ticks (per request: to one tick over the requests)"})
	if s.StartupS != nil {
		rows = append(rows, []string{"Server startup" + pid, FormatTime(*s.StartupS * 1e6),
			"from exec to the first good response, polled about every 1 ms"})
	}
	if s.ExitedDuringLoad {
		rows = append(rows, []string{"Server exit" + pid, "exited during the load", "later samples are missing"})
	}
	return rows
}

func writeNotes(ew *Printer, r stats.Result) {
	if !r.Interrupted && len(r.Warnings) == 0 {
		return
	}
	ew.Printf("\n**Notes**\n\n")
	if r.Interrupted {
		ew.Printf("- Interrupted: these are the results gathered before the run was stopped.\n")
	}
	for _, warning := range r.Warnings {
		ew.Printf("- Warning: %s\n", OneLine(warning))
	}
}

func distributionRows(latency *stats.Latency) [][]string {
	l, lat := LatencyFormatter(latency)
	rows := make([][]string, 0, 8)
	for _, p := range []struct {
		name string
		us   float64
	}{{"50%", l.P50}, {"75%", l.P75}, {"90%", l.P90}, {"95%", l.P95}, {"99%", l.P99},
		{"99.9%", l.P999}, {"99.99%", l.P9999}, {"max", l.Max}} {
		rows = append(rows, []string{p.name, lat(p.us)})
	}
	return rows
}

// errorRows has one row per class that failed or has causes.
func errorRows(r stats.Result) [][]string {
	var rows [][]string
	for c := range record.NumErrorClasses {
		n, causes := r.Errors.ByClass(c), r.ErrorCauses[c.String()]
		if n > 0 || len(causes) > 0 {
			rows = append(rows, []string{c.String(), FormatCount(n), causeList(causes)})
		}
	}
	return rows
}

// writeCommand prints the command, or each command of the results merged,
// in a fence longer than any run of backquotes inside them, so that no
// command can end the block early.
func writeCommand(ew *Printer, c stats.Config) {
	title, commands := "Command", []string{c.Command}
	if len(c.MergedCommands) > 0 {
		title, commands = fmt.Sprintf("Commands (%d results merged)", len(c.MergedCommands)), c.MergedCommands
	}
	block := strings.Join(commands, "\n")
	if block == "" {
		return
	}
	fence := "```"
	for strings.Contains(block, fence) {
		fence += "`"
	}
	ew.Printf("\n**%s**\n\n%ssh\n%s\n%s\n", title, fence, block, fence)
}

// EnvironmentLine is "linux/amd64, AMD EPYC 7B13, 2 CPUs, 7.75GiB memory,
// kernel 6.8.0, go1.26.8, pummel v0.1.0, 2025-11-30T03:50:00Z", without the
// parts that are unknown.
func EnvironmentLine(e stats.Environment) string {
	var parts []string
	add := func(format string, value any, known bool) {
		if known {
			parts = append(parts, fmt.Sprintf(format, value))
		}
	}
	add("%s", e.OS+"/"+e.Arch, e.OS != "" || e.Arch != "")
	add("%s", e.CPUModel, e.CPUModel != "")
	add("%s", english.Plural(e.CPUs, "CPU"), e.CPUs > 0)
	add("%s memory", FormatBytes(float64(e.MemoryBytes)), e.MemoryBytes > 0)
	add("kernel %s", e.Kernel, e.Kernel != "")
	add("%s", e.GoVersion, e.GoVersion != "")
	add("pummel %s", e.PummelVersion, e.PummelVersion != "")
	add("%s", e.Date, e.Date != "")
	return OneLine(strings.Join(parts, ", "))
}

// ErrorList lists the classes that failed, "read 3, timeout 1", or "none".
func ErrorList(e stats.Errors) string {
	var items []string
	for c := range record.NumErrorClasses {
		if n := e.ByClass(c); n > 0 {
			items = append(items, fmt.Sprintf("%s %s", c, FormatCount(n)))
		}
	}
	if len(items) == 0 {
		return "none"
	}
	return strings.Join(items, ", ")
}
