// Package wholefile writes files whole or not at all, so that a failed
// write (a full disk, a closed pipe) never leaves a truncated result in
// place of an earlier one. Every file pummel writes goes through it. It
// never chooses a path or a format: its callers do.
package wholefile

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes the file path with write: into a temporary file in the
// same directory, synced, then renamed over path. The rename is atomic,
// so path holds either its old content or all of the new. A replaced
// file keeps its mode; a new one is readable by all, as os.Create would
// make it under the usual umask. The error does not repeat the path.
func Write(path string, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return unwrapPath(err)
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	bw := bufio.NewWriter(f)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Chmod(fileMode(path))
	}
	if err == nil {
		err = f.Sync() // a full disk may only show here
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return unwrapPath(err)
	}
	return unwrapPath(os.Rename(f.Name(), path))
}

// fileMode keeps the mode of the file being replaced; a new file gets
// 0644 (CreateTemp's 0600 is for secrets).
func fileMode(path string) fs.FileMode {
	if fi, err := os.Stat(path); err == nil {
		return fi.Mode().Perm()
	}
	return 0o644
}

// Probe makes sure a file can be created in dir, by creating one and
// removing it again, so that a mistake in an output's directory shows
// before any load is sent. The error does not repeat the path.
func Probe(dir string) error {
	f, err := os.CreateTemp(dir, ".pummel-check-*")
	if err != nil {
		return unwrapPath(err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// MakeDir creates dir with its parents, if need be, and probes it.
func MakeDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return unwrapPath(err)
	}
	return Probe(dir)
}

// unwrapPath drops the operation and path an *fs.PathError or
// *os.LinkError repeats (the temporary file's name): the caller names
// the path once.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
