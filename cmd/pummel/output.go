package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"

	"github.com/pummel-dev/pummel/stats"
)

// output is one file a command was asked to write the result to, or a
// directory it was asked to write files into (charts; checked only).
type output struct {
	flag   string // the flag that asked for it, for error lines
	path   string
	render func(io.Writer, stats.Result) error
	dir    bool
}

// files lists the files the options ask for: every -o, then --hdr-log.
func (o *options) files() []output {
	var outs []output
	for _, path := range o.outputs.Value() {
		render := renderers[formatOf(path)]
		outs = append(outs, output{flag: "-o", path: path, render: func(w io.Writer, r stats.Result) error { return render(w, r, o) }})
	}
	if o.hdrLog != "" {
		outs = append(outs, output{flag: "--hdr-log", path: o.hdrLog, render: stats.WriteHdrLog})
	}
	return outs
}

// checkOutputs makes sure, before any load is sent, that every output can
// be written: a file's directory exists and takes a new file (one is
// created and removed there), and the path is not a directory; a
// directory can be created, or exists and takes files.
func checkOutputs(outs []output) error {
	for _, out := range outs {
		check := checkFile
		if out.dir {
			check = checkDir
		}
		if err := check(out.path); err != nil {
			return usageError{fmt.Sprintf("%s %s: %v", out.flag, out.path, err)}
		}
	}
	return nil
}

// checkFile reports why a file cannot be written at path.
func checkFile(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return errors.New("is a directory")
	}
	return checkWritableDir(filepath.Dir(path))
}

// checkDir reports why files cannot be written into dir, which is
// created (with its parents) when the charts are drawn: the nearest
// directory that exists must take them.
func checkDir(dir string) error {
	at := dir
	for {
		if _, err := os.Stat(at); err == nil || filepath.Dir(at) == at {
			return checkWritableDir(at)
		}
		at = filepath.Dir(at)
	}
}

// checkWritableDir reports why no file can be created in dir.
func checkWritableDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("directory %s does not exist", dir)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	return probe(dir)
}

// probe creates and removes a file in dir.
func probe(dir string) error {
	f, err := os.CreateTemp(dir, ".pummel-check-*")
	if err != nil {
		return fmt.Errorf("cannot create a file in %s: %w", dir, unwrapPath(err))
	}
	f.Close()
	return os.Remove(f.Name())
}

// unwrapPath drops the temporary file's name from an error about it.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// writeResult writes res to every file first, so that a closed stdout
// cannot cost them, then to stdout in --format. Every output that can be
// written is; each failure is one line of the returned error.
func (l *loader) writeResult(outs []output, res stats.Result) error {
	var errs []error
	for _, out := range outs {
		errs = append(errs, createFile(out.flag, out.path, func(w io.Writer) error { return out.render(w, res) }))
	}
	if err := l.writeStdout(res); err != nil {
		errs = append(errs, fmt.Errorf("writing the result to stdout: %w", err))
	}
	return errors.Join(errs...)
}

// createFile writes the file path whole with write; an error names the
// flag that asked for the file, and the path.
func createFile(flag, path string, write func(io.Writer) error) error {
	if err := writeWhole(path, write); err != nil {
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return nil
}

// writeWhole writes a file whole or not at all: into a temporary file in
// the same directory, synced, then renamed over path. A failed write (a
// full disk) leaves a previous file at path as it was.
func writeWhole(path string, write func(io.Writer) error) (err error) {
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
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return unwrapPath(err)
	}
	return unwrapPath(os.Rename(f.Name(), path))
}

// fileMode keeps the mode of the file being replaced; a new file is
// readable by all, as os.Create would make it under the usual umask.
func fileMode(path string) fs.FileMode {
	if fi, err := os.Stat(path); err == nil {
		return fi.Mode().Perm()
	}
	return 0o644
}

// stdoutWriter is stdout that treats a reader gone away (EPIPE: `| head
// -1`, `| true`) as the end of stdout, not of the run: later writes are
// dropped, and the files and the exit code are what the run deserves.
// main lets writes fail with EPIPE instead of dying of SIGPIPE.
type stdoutWriter struct {
	w      io.Writer
	closed atomic.Bool
}

func (s *stdoutWriter) Write(p []byte) (int, error) {
	if s.closed.Load() {
		return len(p), nil
	}
	n, err := s.w.Write(p)
	if errors.Is(err, syscall.EPIPE) {
		s.closed.Store(true)
		return len(p), nil
	}
	return n, err
}
