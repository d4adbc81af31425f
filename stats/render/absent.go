package render

import "github.com/pummel-dev/pummel/stats"

// absent stands for a figure that was not measured, such as the latency of
// a run in which no request was answered: shown as "-", never as a zero.
const absent = "-"

// LatencyFormatter returns l's figures and a formatter for them, which
// prints each as FormatTime does, or as absent when l is nil (the
// figures are then zeros that must not be shown).
func LatencyFormatter(l *stats.Latency) (stats.Latency, func(us float64) string) {
	if l == nil {
		return stats.Latency{}, func(float64) string { return absent }
	}
	return *l, FormatTime
}
