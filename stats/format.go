package stats

import "io"

// FormatTime formats microseconds with wrk's time units ("635.91us",
// "1.50ms", "2.25s"), for renderers outside this package.
func FormatTime(us float64) string { return formatTimeUs(us) }

// LatencyFormatter returns l's figures and a formatter for them, for
// renderers outside this package: each figure prints as FormatTime does,
// or as "-" when l is nil (no request was answered).
func LatencyFormatter(l *Latency) (Latency, func(us float64) string) { return latencyFormatter(l) }

// FormatCount formats a count with thousands separators ("40,000").
func FormatCount(n int64) string { return groupInt(n) }

// FormatRate formats a rate with thousands separators and two decimals
// ("12,345.67").
func FormatRate(r float64) string { return groupFloat(r, 2) }

// EnvironmentLine describes e on one line, leaving out what is unknown:
// "linux/amd64, AMD EPYC 7B13, 2 CPUs, 7.75GB memory, kernel 6.8.0, …".
func EnvironmentLine(e Environment) string { return environmentLine(e) }

// MarkdownTable writes a GitHub table: aligns holds each column's
// delimiter ("---", "---:"); cells are kept to one line with "|" escaped.
func MarkdownTable(w io.Writer, header, aligns []string, rows [][]string) error {
	ew := NewPrinter(w)
	ew.Table(header, aligns, rows)
	return ew.Err()
}

// OneLine folds every run of white space in s, line breaks included, into
// one space.
func OneLine(s string) string { return oneLine(s) }
