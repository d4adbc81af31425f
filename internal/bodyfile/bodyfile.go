// Package bodyfile reads a request body from a file (--body-file, a
// target's @path): no further than a limit, so that an endless file
// (/dev/zero) costs no more than the limit and is refused at once, and,
// from a FIFO, no longer than its caller's context and a wait for each
// write allow, so that a FIFO nobody writes cannot hold pummel deaf to
// signals. It never names a flag: its callers word the errors.
package bodyfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// ErrTooLarge is a body file that holds more than the limit.
var ErrTooLarge = errors.New("holds more than the limit")

// ErrNoWriter is a FIFO that no process wrote to (nor closed) for the
// wait: none opened it, or the one that did is silent.
var ErrNoWriter = errors.New("no process wrote to this FIFO")

// Read reads the file path, refusing one of more than limit bytes with
// ErrTooLarge. A regular file's size is checked before reading; any other
// file is read no further than one byte past limit.
//
// A FIFO (or a pipe, as /dev/fd/63 from a shell's <(…)) is read as it is
// written: the body is what its writer writes until it closes it. Read
// waits at most wait for a writer to open it, and as long again for each
// write after that, then fails with ErrNoWriter (its error names the
// path and says what to do); and it ends with ctx's
// error as soon as ctx is done. Opening it never waits (on Linux; on
// other systems a FIFO is opened and read as an ordinary file).
func Read(ctx context.Context, path string, limit int64, wait time.Duration) ([]byte, error) {
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Mode().IsRegular() && fi.Size() > limit {
		return nil, ErrTooLarge // no need to read it
	}
	// Once ctx is done, every read (through the runtime's poller) ends at
	// once; a regular file or a device such as /dev/zero, which the
	// poller does not take, never blocks for long.
	stop := context.AfterFunc(ctx, func() { f.SetReadDeadline(time.Unix(1, 0)) }) //nolint:errcheck // a file without deadlines does not block
	defer stop()
	r, err := reader(ctx, f, fi, wait)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, fmt.Errorf("%s: %w for %v; start its writer first, or save what it holds to a file", path, ErrNoWriter, wait)
	case err == nil && int64(len(b)) > limit:
		return nil, ErrTooLarge
	}
	return b, err
}
