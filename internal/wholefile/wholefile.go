// Package wholefile writes files whole or not at all, so that a failed
// write (a full disk, a closed pipe) never leaves a truncated result in
// place of an earlier one. Every file pummel writes goes through it. It
// never chooses a path or a format: its callers do.
//
// A path is written as a shell's ">" would write it: through a symbolic
// link to the link's target (the link stays), and straight into a FIFO,
// a device or any other file that is not a regular one (/dev/stdout,
// /dev/null), which a rename would replace instead.
package wholefile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Write writes the file path with write: into a temporary file in the
// same directory, synced, then renamed over path. The rename is atomic,
// so path holds either its old content or all of the new. A replaced
// file keeps its mode; a new one is readable by all, as os.Create would
// make it under the usual umask. A symbolic link is followed to the file
// it names, which is written so; a FIFO or device is written directly
// (see Resolve), once a reader opened it. The error does not repeat the
// path.
func Write(path string, write func(io.Writer) error) error {
	target, regular, err := Resolve(path)
	if err != nil {
		return err
	}
	if !regular {
		return stream(target, write)
	}
	return replace(target, write)
}

// replace writes the regular file path (or a new one) whole: a temporary
// file beside it, synced, then renamed over it.
func replace(path string, write func(io.Writer) error) (err error) {
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

// stream writes write's output straight into path, an existing file that
// is not a regular one: a FIFO's reader gets it as it is written, a
// device takes it. Nothing there can be kept whole, nor synced. A FIFO
// without a reader is waited for, at most readerWait.
func stream(path string, write func(io.Writer) error) error {
	f, err := OpenFIFO(context.Background(), path, readerWait)
	if err != nil {
		return err
	}
	return WriteInto(f, write)
}

// readerWait is how long Write waits for a FIFO's reader: one started a
// moment after pummel (`pummel report --plot DIR` with a FIFO in DIR, a
// suite's suite.json) still gets what is written, and one that never
// comes costs at most this. A second Ctrl-C ends pummel during the wait;
// a writer that must end on the first opens the FIFO itself, with
// OpenFIFO and its context, as the load's -o does.
var readerWait = 10 * time.Second

// WriteInto writes write's output into f, a FIFO (as OpenFIFO opened it)
// or a device open to write, then closes f. The error does not repeat
// the path.
func WriteInto(f *os.File, write func(io.Writer) error) error {
	bw := bufio.NewWriter(f)
	err := write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return unwrapPath(err)
}

// Resolve reports the file a write to path reaches, through any symbolic
// links, and whether it is a regular file or none yet: a file Write
// replaces whole, beside it. Any other file (a FIFO, a device, a socket,
// /dev/stdout) is written directly, through path as given: the kernel's
// own links such as /proc/self/fd/1 name no path to resolve. The error
// does not repeat the path.
func Resolve(path string) (target string, regular bool, err error) {
	fi, err := os.Stat(path)
	switch {
	case err == nil && (!fi.Mode().IsRegular() || isStdio(fi)):
		return path, false, nil
	case err == nil:
		target, err = filepath.EvalSymlinks(path)
		return target, true, unwrapPath(err)
	case errors.Is(err, fs.ErrNotExist):
		target, err = dangling(path)
		return target, true, err
	}
	return "", false, unwrapPath(err)
}

// maxLinks is how many symbolic links dangling follows before it gives
// up, as the kernel's ELOOP does (Linux allows 40).
const maxLinks = 40

// dangling follows a chain of symbolic links that ends at no file to the
// path a write would create, as a shell's ">" does; a path that is no
// link is its own.
func dangling(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) || err == nil && fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		} else if err != nil {
			return "", unwrapPath(err)
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", unwrapPath(err)
		}
		if !filepath.IsAbs(link) {
			// Relative to the link's real directory, so that ".." in
			// the link means what the kernel takes it to mean.
			dir := filepath.Dir(path)
			if real, err := filepath.EvalSymlinks(dir); err == nil {
				dir = real
			}
			link = filepath.Join(dir, link)
		}
		path = link
	}
	return "", syscall.ELOOP
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

// isStdio reports whether fi is the file this process's stdout or stderr
// is: /dev/stdout redirected to a file, or a link to it. Replacing it
// would unlink what the shell redirected into, so it is written into.
func isStdio(fi os.FileInfo) bool {
	for _, f := range []*os.File{os.Stdout, os.Stderr} {
		if sfi, err := f.Stat(); err == nil && os.SameFile(fi, sfi) {
			return true
		}
	}
	return false
}

// ErrNoReader is returned for a FIFO that no process reads: opening it to
// write would wait for one forever.
var ErrNoReader = errors.New("no process reads this FIFO")

// fifoPoll is how often OpenFIFO tries the FIFO again while it waits.
const fifoPoll = 10 * time.Millisecond

// OpenFIFO opens the FIFO path to write, as a shell's ">" would, once a
// process has opened it to read: `pummel -o p.json & jq . p.json` may
// start jq a moment after pummel. It waits at most wait for that reader,
// then fails with ErrNoReader, and it ends with ctx's error as soon as
// ctx is done. The open file is written with WriteInto: holding it open
// keeps the reader waiting for what comes. The error does not repeat the
// path.
func OpenFIFO(ctx context.Context, path string, wait time.Duration) (*os.File, error) {
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	poll := time.NewTicker(fifoPoll)
	defer poll.Stop()
	for {
		f, err := openStream(path)
		if !errors.Is(err, ErrNoReader) {
			return f, unwrapPath(err)
		}
		// A FIFO tells no writer when its reader comes (open(2) without
		// O_NONBLOCK would wait, but no context could end that wait):
		// the open is tried again.
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timeout.C:
			return nil, fmt.Errorf("%w: none opened it in %v", ErrNoReader, wait)
		case <-poll.C:
		}
	}
}

// openStream opens path to write, appending: a descriptor of the process
// reopened by its path (/dev/stdout redirected to a file) keeps what it
// holds. It opens without blocking, so that a FIFO without a reader is
// ErrNoReader at once, then writes blocking (Fd sets it so).
func openStream(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ENXIO) {
		return nil, ErrNoReader
	}
	if err != nil {
		return nil, err
	}
	f.Fd()
	return f, nil
}
