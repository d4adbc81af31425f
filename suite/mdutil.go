package suite

import (
	"fmt"
	"io"

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
	if mw.err == nil {
		mw.err = stats.MarkdownTable(mw.w, header, aligns, rows)
	}
}
