package suite

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/pummel-dev/pummel/internal/wholefile"
)

// outputs are the files WriteFiles writes into a suite's directory.
var outputs = []struct {
	name  string
	write func(io.Writer, *Result) error
}{{"suite.json", WriteJSON}, {"suite.md", WriteMarkdown}}

// CheckDir makes sure dir can receive a suite's outputs: it creates dir
// and a file in it, removed again, so that a mistake in the output
// directory shows before any server is started or load sent.
func CheckDir(dir string) error {
	return wholefile.MakeDir(dir)
}

// WriteFiles writes suite.json and suite.md into dir, each whole or not
// at all, so that a failed write never leaves a truncated file in place of
// an earlier result. It writes every file it can: it returns the paths
// written, and one error naming the path for each file that failed.
func WriteFiles(dir string, r *Result) (written []string, errs []error) {
	for _, out := range outputs {
		path := filepath.Join(dir, out.name)
		err := wholefile.Write(path, func(w io.Writer) error { return out.write(w, r) })
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", path, err))
			continue
		}
		written = append(written, path)
	}
	return written, errs
}
