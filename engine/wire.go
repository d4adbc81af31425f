package engine

import (
	"io"
	"net"
	"os"
	"syscall"
)

// wire is a connection's byte stream: it writes requests, feeds the
// response reader and counts bytes both ways until they are handed to a
// batch.
//
// On a plain TCP or Unix socket it writes each request, and makes the
// first read of each response, with a direct system call on the socket:
// both are non-blocking, so they cannot wait, and skipping the net
// package's locks, deadline checks and scheduler hand-off saves a
// noticeable share of the per-request CPU. Anything that would wait (a
// full send buffer, a response not there yet) and every later read of a
// response go through net.Conn, which keeps the deadlines and the
// netpoller: a timeout or the end of the run is noticed as before.
//
// A tempting further saving is to defer the request's write into
// syscall.RawConn.Read's callback, so that read readiness is armed before
// the request leaves and the EAGAIN read that usually follows a write
// disappears. It is unsound: arming clears a readiness edge that arrived
// earlier, so a server's FIN that came while the connection sat idle is
// never seen, and the request waits for its timeout instead of
// reconnecting. The engine test "silently while idle" catches it. (The
// engine avoids that read by yielding before it instead; see roundTrip.)
type wire struct {
	conn net.Conn
	// fd is conn's socket for direct system calls, or -1 (TLS, a custom
	// dialer's connection, a platform without them).
	fd int
	// direct lets the next Read try one direct read first.
	direct  bool
	read    int64 // bytes read, not yet handed to a batch
	written int64 // bytes written, not yet handed to a batch
}

// attach makes nc the stream's connection; nil detaches it.
func (w *wire) attach(nc net.Conn) {
	w.conn, w.fd, w.direct = nc, -1, false
	if nc != nil && directIO {
		w.fd = socketFD(nc)
	}
}

// send writes the whole request.
func (w *wire) send(req []byte) error {
	if w.fd >= 0 {
		n, err := sysWrite(w.fd, req)
		w.written += int64(n)
		if err == 0 && n == len(req) {
			return nil
		}
		if err != 0 && !wouldBlock(err) {
			return os.NewSyscallError("write", err)
		}
		req = req[n:] // the rest waits for room in the send buffer
	}
	n, err := w.conn.Write(req)
	w.written += int64(n)
	return err
}

// Read reads from the connection, counting bytes.
func (w *wire) Read(p []byte) (int, error) {
	if w.direct && w.fd >= 0 && len(p) > 0 {
		w.direct = false
		n, err := sysRead(w.fd, p)
		switch {
		case err == 0 && n > 0:
			w.read += int64(n)
			return n, nil
		case err == 0:
			return 0, io.EOF
		case !wouldBlock(err):
			return 0, os.NewSyscallError("read", err)
		}
	}
	n, err := w.conn.Read(p)
	w.read += int64(n)
	return n, err
}

// wouldBlock reports whether a direct call found nothing to do at once;
// the same call through net.Conn then waits for the socket.
func wouldBlock(err syscall.Errno) bool {
	return err == syscall.EAGAIN || err == syscall.EWOULDBLOCK || err == syscall.EINTR
}

// socketFD returns nc's socket descriptor when direct system calls on it
// are safe: a plain TCP or Unix stream connection. The descriptor stays
// valid until the connection's own goroutine closes it (the run stops
// connections with deadlines, never by closing them).
func socketFD(nc net.Conn) int {
	var sc syscall.Conn
	switch c := nc.(type) {
	case *net.TCPConn:
		sc = c
	case *net.UnixConn:
		sc = c
	default:
		return -1
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	if raw.Control(func(s uintptr) { fd = int(s) }) != nil {
		return -1
	}
	return fd
}
