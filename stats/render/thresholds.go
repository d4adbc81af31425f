package render

import "github.com/pummel-dev/pummel/stats"

// writeThresholdsText prints one line per threshold after wrk's lines:
// "Threshold p99<20ms: ok (18.2ms)".
func writeThresholdsText(ew *Printer, ts []stats.Threshold) {
	for _, t := range ts {
		ew.Printf("Threshold %s: %s (%s)\n", t.Expr, t.Outcome(), t.Value)
	}
}

// writeThresholdsMarkdown writes a Threshold | Value | Outcome table.
func writeThresholdsMarkdown(ew *Printer, ts []stats.Threshold) {
	if len(ts) == 0 {
		return
	}
	rows := make([][]string, len(ts))
	for i, t := range ts {
		rows[i] = []string{"`" + t.Expr + "`", t.Value, t.Outcome()}
	}
	ew.Printf("\n**Thresholds**\n\n")
	ew.Table([]string{"Threshold", "Value", "Outcome"}, []string{"---", "---:", "---"}, rows)
}
