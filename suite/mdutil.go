package suite

import (
	"fmt"
	"io"
	"strings"
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
