package engine

import (
	"net"
)

// wire is a connection's byte stream: it writes requests, feeds the
// response reader and counts bytes both ways until they are handed to a
// batch.
//
// A tempting saving is to defer the request's write into
// syscall.RawConn.Read's callback, so that read readiness is armed before
// the request leaves and the EAGAIN read that usually follows a write
// disappears (three system calls per request become two). It is unsound:
// arming clears a readiness edge that arrived earlier, so a server's FIN
// that came while the connection sat idle is never seen, and the request
// waits for its timeout instead of reconnecting. The engine test
// "silently while idle" catches it.
type wire struct {
	conn    net.Conn
	read    int64 // bytes read, not yet handed to a batch
	written int64 // bytes written, not yet handed to a batch
}

// send writes the whole request.
func (w *wire) send(req []byte) error {
	n, err := w.conn.Write(req)
	w.written += int64(n)
	return err
}

// Read reads from the connection, counting bytes.
func (w *wire) Read(p []byte) (int, error) {
	n, err := w.conn.Read(p)
	w.read += int64(n)
	return n, err
}
