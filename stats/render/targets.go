package render

import (
	"strconv"

	"github.com/pummel-dev/pummel/stats"
)

// targetHeader names the columns of the per-target table.
var targetHeader = []string{"Target", "Request", "Weight", "Requests", "Errors", "p50", "p90", "p99", "Max"}

// targetRows are the per-target table's rows: a row's name or place,
// its first target's request line (and how many more targets it holds),
// weight, counts and latency.
func targetRows(ts []stats.Target) [][]string {
	rows := make([][]string, len(ts))
	for i, t := range ts {
		rows[i] = []string{t.Label(i), t.Method + " " + t.URL + MoreTargets(t.Members), strconv.Itoa(t.Weight), strconv.FormatInt(t.Requests, 10),
			strconv.FormatInt(t.Errors.Total(), 10),
			latencyCell(t.Latency, func(l stats.Latency) float64 { return l.P50 }),
			latencyCell(t.Latency, func(l stats.Latency) float64 { return l.P90 }),
			latencyCell(t.Latency, func(l stats.Latency) float64 { return l.P99 }),
			latencyCell(t.Latency, func(l stats.Latency) float64 { return l.Max })}
	}
	return rows
}

// MoreTargets follows the request of a row of n targets, its first:
// " (+4,999 more)" for 5,000, "" for one.
func MoreTargets(n int) string {
	if n <= 1 {
		return ""
	}
	return " (+" + FormatCount(int64(n-1)) + " more)"
}

// writeTargetsText prints the per-target table of a load over a list of
// targets, the request last, as it is the widest.
func writeTargetsText(ew *Printer, ts []stats.Target) {
	if len(ts) == 0 {
		return
	}
	const row = "  %-10s %6s %10s %8s %9s %9s %9s %9s  %s\n"
	h := targetHeader
	ew.Printf("\nTargets\n")
	ew.Printf(row, h[0], h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[1])
	for _, r := range targetRows(ts) {
		ew.Printf(row, r[0], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[1])
	}
}

// writeTargetsMarkdown writes the per-target table, as writeTargetsText
// prints it.
func writeTargetsMarkdown(ew *Printer, ts []stats.Target) {
	if len(ts) == 0 {
		return
	}
	ew.Printf("\n**Targets**\n\n")
	ew.Table(targetHeader, []string{"---", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:"}, targetRows(ts))
}
