package suite

import (
	"fmt"
	"io"
	"strings"

	"github.com/pummel-dev/pummel/stats"
)

// markdownWriter writes markdown, keeping the first write error.
type markdownWriter struct {
	w   io.Writer
	err error
}

func (mw *markdownWriter) printf(format string, args ...any) {
	if mw.err == nil {
		_, mw.err = fmt.Fprintf(mw.w, format, args...)
	}
}

// table writes a GitHub table; aligns holds each column's delimiter.
func (mw *markdownWriter) table(header, aligns []string, rows [][]string) {
	mw.printf("| %s |\n|%s|\n", strings.Join(cells(header), " | "), strings.Join(aligns, "|"))
	for _, row := range rows {
		mw.printf("| %s |\n", strings.Join(cells(row), " | "))
	}
}

// cells escapes text for table cells.
func cells(row []string) []string {
	out := make([]string, len(row))
	for i, cell := range row {
		out[i] = strings.ReplaceAll(oneLine(cell), "|", `\|`)
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// environmentLine is "linux/amd64, AMD EPYC 7B13, 2 CPUs, 7.75GB memory,
// kernel 6.8.0, go1.26.0, pummel v0.1.0, 2026-01-30T03:50:00Z", without
// the parts that are unknown: the line pummel's markdown results end with.
func environmentLine(e stats.Environment) string {
	var parts []string
	add := func(s string, known bool) {
		if known {
			parts = append(parts, s)
		}
	}
	add(e.OS+"/"+e.Arch, e.OS != "" || e.Arch != "")
	add(e.CPUModel, e.CPUModel != "")
	add(plural(e.CPUs, "CPU"), e.CPUs > 0)
	add(stats.FormatBytes(float64(e.MemoryBytes))+" memory", e.MemoryBytes > 0)
	add("kernel "+e.Kernel, e.Kernel != "")
	add(e.GoVersion, e.GoVersion != "")
	add("pummel "+e.PummelVersion, e.PummelVersion != "")
	add(e.Date, e.Date != "")
	return oneLine(strings.Join(parts, ", "))
}
