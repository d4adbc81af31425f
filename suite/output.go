package suite

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// outputs are the files WriteFiles writes into a suite's directory.
var outputs = []struct {
	name  string
	write func(io.Writer, *Report) error
}{{"suite.json", WriteJSON}, {"suite.md", WriteMarkdown}}

// CheckDir makes sure dir can receive a suite's outputs: it creates dir
// and a file in it, removed again, so that a mistake in the output
// directory shows before any server is started or load sent.
func CheckDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return unwrapPath(err)
	}
	f, err := os.CreateTemp(dir, ".pummel-check-*")
	if err != nil {
		return unwrapPath(err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// WriteFiles writes suite.json and suite.md into dir, each whole or not
// at all, so that a failed write never leaves a truncated file in place of
// an earlier result. It writes every file it can: it returns the paths
// written, and one error naming the path for each file that failed.
func WriteFiles(dir string, r *Report) (written []string, errs []error) {
	for _, out := range outputs {
		path := filepath.Join(dir, out.name)
		err := writeWhole(path, func(w io.Writer) error { return out.write(w, r) })
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", path, unwrapPath(err)))
			continue
		}
		written = append(written, path)
	}
	return written, errs
}

// writeWhole writes a file through a temporary file in the same directory,
// synced and then renamed over path: the rename is atomic, so path holds
// either its old content or all of the new.
func writeWhole(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	err = write(f)
	if err == nil {
		err = f.Sync() // a full disk may only show here
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644) // CreateTemp's 0600 is for secrets
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// unwrapPath drops the operation and path an *os.PathError or
// *os.LinkError repeats: the caller names the path once.
func unwrapPath(err error) error {
	switch e := err.(type) {
	case *os.PathError:
		return e.Err
	case *os.LinkError:
		return e.Err
	}
	return err
}
