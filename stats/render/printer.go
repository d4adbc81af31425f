package render

import (
	"fmt"
	"io"
	"strings"
)

// Printer writes formatted text to a writer, keeping the first write
// error and skipping every write after it, so that a renderer prints
// freely and checks one error at the end.
type Printer struct {
	w   io.Writer
	err error
}

// NewPrinter returns a Printer writing to w.
func NewPrinter(w io.Writer) *Printer { return &Printer{w: w} }

// Printf writes like fmt.Fprintf, unless an earlier write failed.
func (ew *Printer) Printf(format string, args ...any) {
	if ew.err == nil {
		_, ew.err = fmt.Fprintf(ew.w, format, args...)
	}
}

// Err is the first write error, if any.
func (ew *Printer) Err() error { return ew.err }

// Table writes a GitHub table; aligns holds each column's delimiter
// ("---", "---:"); cells are kept to one line with "|" escaped.
func (ew *Printer) Table(header, aligns []string, rows [][]string) {
	ew.Printf("| %s |\n|%s|\n", strings.Join(cells(header), " | "), strings.Join(aligns, "|"))
	for _, row := range rows {
		ew.Printf("| %s |\n", strings.Join(cells(row), " | "))
	}
}

// cells escapes text for table cells: "|" would start a new cell and a line
// break would end the table.
func cells(row []string) []string {
	out := make([]string, len(row))
	for i, cell := range row {
		out[i] = strings.ReplaceAll(OneLine(cell), "|", `\|`)
	}
	return out
}

// MarkdownTable writes a GitHub table: aligns holds each column's
// delimiter ("---", "---:"); cells are kept to one line with "|" escaped.
func MarkdownTable(w io.Writer, header, aligns []string, rows [][]string) error {
	ew := NewPrinter(w)
	ew.Table(header, aligns, rows)
	return ew.Err()
}
