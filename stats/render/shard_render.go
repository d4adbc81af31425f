package render

import (
	"fmt"
	"strings"

	"github.com/pummel-dev/pummel/stats"
)

// startText says when a run given --start-at (a part, usually) started:
// "2026-12-01T15:00:00.0012Z, 1.20ms after the planned
// 2026-12-01T15:00:00Z"; "" when it was not given a start.
func startText(r stats.Result) string {
	if r.StartAt == "" {
		return ""
	}
	s := orAbsent(r.Start)
	if delay, ok := r.StartDelay(); ok {
		s += fmt.Sprintf(", %s after the planned %s", FormatTime(float64(delay.Microseconds())), r.StartAt)
	}
	return s
}

// orAbsent is s, or the absent mark for "".
func orAbsent(s string) string {
	if s == "" {
		return absent
	}
	return s
}

// writeStartText says which part a result is, and when it started.
func writeStartText(ew *Printer, r stats.Result) {
	start := startText(r)
	switch {
	case r.Shard != nil && start != "":
		ew.Printf("Shard: %d/%d, started %s\n", r.Shard.Index, r.Shard.Count, start)
	case r.Shard != nil:
		ew.Printf("Shard: %d/%d\n", r.Shard.Index, r.Shard.Count)
	case start != "":
		ew.Printf("Start: %s\n", start)
	}
}

// shardsSummary is "3 of 3 merged, start skew 1.20ms".
func shardsSummary(t *stats.Shards) string {
	s := fmt.Sprintf("%d of %d merged, start skew %s", len(t.Parts), t.Count, FormatTime(t.StartSkewS*1e6))
	if len(t.Missing) > 0 {
		s += "; missing: " + t.MissingList()
	}
	return s
}

// shardRows are the rows of the shard table, one per part: index, start
// offset, requests, requests/s, p99, errors, schedule lag p99 (open loop
// only) and client CPU.
func shardRows(t *stats.Shards) (header []string, rows [][]string) {
	lag := false
	for _, p := range t.Parts {
		lag = lag || p.ScheduleLagP99 != nil
	}
	header = []string{"Shard", "Start", "Requests", "Req/s", "Latency p99", "Errors"}
	if lag {
		header = append(header, "Lag p99")
	}
	header = append(header, "Client CPU")
	for _, p := range t.Parts {
		row := []string{fmt.Sprint(p.Index), "+" + FormatTime(p.StartOffsetS*1e6), FormatCount(p.Requests),
			FormatRate(p.RequestsPerS), optionalTime(p.LatencyP99), FormatCount(p.Errors.Total())}
		if lag {
			row = append(row, optionalTime(p.ScheduleLagP99))
		}
		rows = append(rows, append(row, p.Client.Summary()))
	}
	return header, rows
}

// optionalTime formats microseconds, or the absent mark for nil.
func optionalTime(us *float64) string {
	if us == nil {
		return absent
	}
	return FormatTime(*us)
}

// writeShardsText prints the shard table after pummel's other lines.
func writeShardsText(ew *Printer, t *stats.Shards) {
	if t == nil {
		return
	}
	ew.Printf("\nShards: %s\n", shardsSummary(t))
	header, rows := shardRows(t)
	widths := make([]int, len(header))
	for _, row := range append([][]string{header}, rows...) {
		for i, cell := range row {
			widths[i] = max(widths[i], len(cell))
		}
	}
	for _, row := range append([][]string{header}, rows...) {
		var b strings.Builder
		for i, cell := range row {
			if i == len(row)-1 {
				fmt.Fprintf(&b, "  %s", cell) // the client's CPU, free text, last
			} else {
				fmt.Fprintf(&b, "  %*s", widths[i], cell)
			}
		}
		ew.Printf("%s\n", b.String())
	}
}

// shardMetricRows are the markdown rows of a part or of a merge of parts.
func shardMetricRows(r stats.Result) [][]string {
	var rows [][]string
	if s := startText(r); s != "" {
		rows = append(rows, []string{"Start", s, "the clock started at the planned time (--start-at), with the connections already open"})
	}
	if r.Shard != nil {
		rows = append(rows, []string{"Shard", fmt.Sprintf("%d/%d", r.Shard.Index, r.Shard.Count),
			"part i/N (i from 0) of a load run by N processes together: its share of -c, -n and -R; merge the parts with pummel report --parallel"})
	}
	if t := r.Shards; t != nil {
		rows = append(rows, []string{"Shards", shardsSummary(t),
			"parts of one load merged exactly (histograms merged, counts summed); start skew: latest actual start less the earliest"})
	}
	return rows
}

// writeShardsMarkdown writes the shard table of a merge of parts.
func writeShardsMarkdown(ew *Printer, t *stats.Shards) {
	if t == nil {
		return
	}
	header, rows := shardRows(t)
	aligns := make([]string, len(header))
	for i := range aligns {
		aligns[i] = "---:"
	}
	aligns[len(aligns)-1] = "---"
	ew.Printf("\n**Shards**\n\n")
	ew.Table(header, aligns, rows)
}
