package goroutine

import (
	"crypto/tls"
	"io"
	"net"
	"os"
	"syscall"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/sock"
)

// wire is a goroutine-transport connection's byte stream: it writes
// requests, reads what the parser is fed and counts bytes both ways until
// they are handed to the conn.
//
// On a plain TCP or Unix socket it reads and writes with raw system calls
// on the socket. Reads go through syscall.RawConn.Read, which keeps the
// connection's deadlines and waits in the netpoller only when a read finds
// nothing; the first read of a response may be a bare raw read (see
// direct). Writes are one raw call, and only a write that would block goes
// through net.Conn. Skipping the net package's read and write paths and
// the scheduler hand-off of a blocking system call (both calls are
// non-blocking) saves a noticeable share of the per-request CPU. The
// deadline is checked by every read but a response's first, which is
// therefore never made once the load has stopped (the stop rule:
// load.halt): a response that never ends still times out, and the load
// still ends on time.
//
// A tempting further saving is to defer the request's write into
// syscall.RawConn.Read's callback, so that read readiness is armed before
// the request leaves and the EAGAIN read that usually follows a write
// disappears. It is unsound: arming clears a readiness edge that arrived
// earlier, so a server's FIN that came while the connection sat idle is
// never seen, and the request waits for its timeout instead of
// reconnecting. TestAnIdleCloseIsAReconnect catches it. (The transport
// avoids most of those reads by yielding before them instead; see
// goConn.awaitResponse.)
type wire struct {
	conn net.Conn
	// raw is conn's socket for raw system calls, with fd its descriptor;
	// nil and -1 for TLS, any connection other than a *net.TCPConn or
	// *net.UnixConn, or a platform without them.
	raw syscall.RawConn
	fd  int
	// rawRead is w.readRaw as a func value, made once: a method value made
	// per call would be allocated per call.
	rawRead func(fd uintptr) bool
	// direct lets the next Read first try a raw read outside
	// RawConn.Read, skipping its locks and deadline bookkeeping: set at the
	// start of a response, and taken only while reads find data at once
	// (waited is false), so that a miss rarely costs an extra read.
	direct, waited bool
	// p, n, errno and calls carry one RawConn.Read's buffer, outcome and
	// number of attempts through rawRead.
	p       []byte
	n       int
	errno   syscall.Errno
	calls   int
	read    int64 // bytes read, not yet handed to a batch
	written int64 // bytes written, not yet handed to a batch
}

func newWire() *wire {
	w := &wire{fd: -1}
	w.rawRead = w.readRaw
	return w
}

// attach makes nc the stream's connection; nil detaches it.
func (w *wire) attach(nc net.Conn) {
	w.conn, w.raw, w.fd, w.direct, w.waited = nc, nil, -1, false, false
	if nc != nil && sock.Direct {
		w.raw, w.fd = rawSocket(nc)
	}
}

// send writes the whole request.
func (w *wire) send(req []byte) error {
	if w.fd >= 0 {
		n, err := sock.Write(w.fd, req)
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
	if w.raw == nil || len(p) == 0 {
		n, err := w.conn.Read(p)
		w.read += int64(n)
		return n, err
	}
	if w.direct && !w.waited {
		w.direct = false
		if n, err := sock.Read(w.fd, p); !wouldBlock(err) {
			return w.result(n, err)
		}
	}
	w.direct = false
	w.p, w.n, w.errno, w.calls = p, 0, 0, 0
	err := w.raw.Read(w.rawRead)
	w.p = nil
	w.waited = w.calls > 1
	if err != nil { // a deadline, or the connection closed under us
		return 0, err
	}
	return w.result(w.n, w.errno)
}

// result turns a raw read's outcome into Read's, counting bytes.
func (w *wire) result(n int, err syscall.Errno) (int, error) {
	switch {
	case err != 0:
		return 0, os.NewSyscallError("read", err)
	case n == 0:
		return 0, io.EOF
	}
	w.read += int64(n)
	return n, nil
}

// readRaw is RawConn.Read's callback: one raw read, or false to wait for
// the socket to become readable when there is nothing to read yet.
func (w *wire) readRaw(fd uintptr) bool {
	w.calls++
	n, err := sock.Read(int(fd), w.p)
	for err == syscall.EINTR {
		n, err = sock.Read(int(fd), w.p)
	}
	if err == syscall.EAGAIN || err == syscall.EWOULDBLOCK {
		return false
	}
	w.n, w.errno = n, err
	return true
}

// wouldBlock reports whether a direct call found nothing to do at once;
// the same call through net.Conn then waits for the socket.
func wouldBlock(err syscall.Errno) bool {
	return err == syscall.EAGAIN || err == syscall.EWOULDBLOCK || err == syscall.EINTR
}

// rawSocket returns nc's socket and descriptor when raw system calls on
// it are safe: a plain TCP or Unix stream connection, whether the engine
// or Config.Dial opened it. The descriptor stays valid until the
// connection's own goroutine closes it: the run stops connections with
// deadlines, never by closing them, and Config.Dial hands its connections
// over to the engine.
func rawSocket(nc net.Conn) (syscall.RawConn, int) {
	var sc syscall.Conn
	switch c := nc.(type) {
	case *net.TCPConn:
		sc = c
	case *net.UnixConn:
		sc = c
	default:
		return nil, -1
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return nil, -1
	}
	fd := -1
	if raw.Control(func(s uintptr) { fd = int(s) }) != nil {
		return nil, -1
	}
	return raw, fd
}

// peekResult is what a look at an idle socket found.
type peekResult uint8

const (
	peekNothing peekResult = iota // nothing arrived, or it cannot be told
	peekClosed                    // the peer closed or reset the connection
	peekData                      // bytes arrived
)

// peek looks at the socket without waiting and without consuming: whether
// the peer closed or reset it, or sent bytes. Over TLS, bytes may be the
// protocol's own (a session ticket), so only a close is reported there.
func (w *wire) peek() peekResult {
	fd, overTLS := w.fd, false
	if tc, ok := w.conn.(*tls.Conn); ok && fd < 0 && sock.Direct {
		_, fd = rawSocket(tc.NetConn())
		overTLS = true
	}
	if fd < 0 {
		return peekNothing
	}
	n, err := sock.Peek(fd)
	switch {
	case err == syscall.ECONNRESET || err == 0 && n == 0:
		return peekClosed
	case err == 0 && !overTLS:
		return peekData
	}
	return peekNothing
}

// handTo moves w's byte counts to c's, for its next batch.
func (w *wire) handTo(c *engine.Conn) {
	c.BytesIn += w.read
	c.BytesOut += w.written
	w.read, w.written = 0, 0
}
