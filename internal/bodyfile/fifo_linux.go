package bodyfile

import (
	"context"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// open opens path to read without waiting for a FIFO's writer: a FIFO
// opened so is added to the runtime's poller, where reads wait and
// deadlines end them.
func open(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// reader is f to read: a FIFO through fifoReader, any other file as it
// is.
func reader(ctx context.Context, f *os.File, fi fs.FileInfo, wait time.Duration) (io.Reader, error) {
	if fi.Mode()&fs.ModeNamedPipe == 0 {
		return f, nil
	}
	raw, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	return &fifoReader{ctx: ctx, f: f, raw: raw, wait: wait}, nil
}

// fifoReader reads a FIFO opened without waiting for its writer. Such a
// FIFO reads as empty (0 bytes) both before any writer opened it and
// after the last one closed it; poll tells the two apart, as Linux
// reports a hang-up only once a writer came and went (fs/pipe.c,
// pipe_poll). An anonymous pipe (/proc/self/fd/N) reports one whenever
// it has no writer.
type fifoReader struct {
	ctx  context.Context
	f    *os.File
	raw  syscall.RawConn
	wait time.Duration
}

// Read waits at most r.wait for the writer to write or to close the FIFO,
// and no longer than r.ctx (whose end sets a deadline in the past).
func (r *fifoReader) Read(p []byte) (int, error) {
	if err := r.f.SetReadDeadline(time.Now().Add(r.wait)); err != nil {
		return 0, err
	}
	// Checked after the deadline is set: a ctx that ends from now on
	// moves it to the past; one that ended before is seen here.
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	var n int
	var rerr error
	err := r.raw.Read(func(fd uintptr) bool {
		n, rerr = readOnce(int(fd), p)
		switch {
		case rerr == syscall.EAGAIN: // a writer, silent so far
			return false
		case rerr != nil || n > 0:
			return true
		case hungUp(int(fd)):
			rerr = io.EOF
			return true
		}
		return false // no writer has opened it yet
	})
	if err != nil {
		return 0, err
	}
	return n, rerr
}

// readOnce is read(2), retried when a signal interrupts it.
func readOnce(fd int, p []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, p)
		if err != syscall.EINTR {
			return max(n, 0), err
		}
	}
}

// hungUp reports whether the writers of the FIFO fd have all closed it.
func hungUp(fd int) bool {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, 0)
		if err != unix.EINTR {
			return n > 0 && fds[0].Revents&unix.POLLHUP != 0
		}
	}
}
