package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/pummel-dev/pummel/internal/wholefile"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/render"
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
		outs = append(outs, output{flag: "--hdr-log", path: o.hdrLog, render: render.WriteHdrLog})
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

// checkFile reports why a file cannot be written at path: through a
// link, at its target; a FIFO or device (/dev/stdout) is written as it
// is, and needs no directory.
func checkFile(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return errors.New("is a directory")
	}
	target, regular, err := wholefile.Resolve(path)
	switch {
	case err != nil:
		return err
	case !regular:
		return nil
	}
	return checkWritableDir(filepath.Dir(target))
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
	if err := wholefile.Probe(dir); err != nil {
		return fmt.Errorf("cannot create a file in %s: %w", dir, err)
	}
	return nil
}

// writeResult writes res to every file first, so that a closed stdout
// cannot cost them, then to stdout in --format. Every output that can be
// written is; each failure is one line of the returned error.
func (l *loader) writeResult(outs []output, res stats.Result) error {
	var errs []error
	for _, out := range outs {
		errs = append(errs, l.createFile(out.flag, out.path, func(w io.Writer) error { return out.render(w, res) }))
	}
	if err := l.writeStdout(res); err != nil {
		errs = append(errs, fmt.Errorf("writing the result to stdout: %w", err))
	}
	return errors.Join(errs...)
}

// createFile writes the file path whole with write, or into its FIFO
// if openFIFOs opened it; an error names the flag that asked for the
// file, and the path.
func (l *loader) createFile(flag, path string, write func(io.Writer) error) error {
	if err := writeFile(l.fifos.take(path), path, write); err != nil {
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return nil
}

// writeFile writes into fifo, when an output's FIFO was opened before
// the load, or else the file path whole.
func writeFile(fifo *os.File, path string, write func(io.Writer) error) error {
	if fifo != nil {
		return wholefile.WriteInto(fifo, write)
	}
	return wholefile.Write(path, write)
}

// fifos are the FIFOs among a command's output files, by path, each
// opened (its reader come) before any load and written once the result
// is: a reader started a moment after pummel (`pummel -o p.json & jq .
// p.json`) is waited for, as tee would, not found missing at the end.
type fifos map[string]*os.File

// openFIFOs opens every FIFO among outs to write, waiting at most wait
// for each one's reader, and no longer than ctx. A FIFO no process
// opens in that time is bad input, named in one line.
func openFIFOs(ctx context.Context, outs []output, wait time.Duration) (fifos, error) {
	opened := fifos{}
	for _, out := range outs {
		if fi, err := os.Stat(out.path); out.dir || opened[out.path] != nil || err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
			continue
		}
		f, err := wholefile.OpenFIFO(ctx, out.path, wait)
		if err == nil {
			opened[out.path] = f
			continue
		}
		opened.close()
		if ctx.Err() != nil {
			return nil, exitError{exitInterrupted, fmt.Sprintf("interrupted before the run started, waiting for a process to read %s %s", out.flag, out.path)}
		}
		if errors.Is(err, wholefile.ErrNoReader) {
			return nil, usageError{fmt.Sprintf("%s %s: %v; start its reader first", out.flag, out.path, err)}
		}
		return nil, usageError{fmt.Sprintf("%s %s: %v", out.flag, out.path, err)}
	}
	return opened, nil
}

// take hands over the FIFO opened for path, if any: the taker writes
// and closes it.
func (f fifos) take(path string) *os.File {
	file := f[path]
	delete(f, path)
	return file
}

// close closes the FIFOs not taken (a load that failed): their readers
// see the end of an empty file.
func (f fifos) close() {
	for path, file := range f {
		file.Close()
		delete(f, path)
	}
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
