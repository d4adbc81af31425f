package h2fixture

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// handshakeTimeout bounds a TLS handshake on the fixture's side.
const handshakeTimeout = 5 * time.Second

// lingerWait bounds how long a clean close drains what the client still
// sends after the server's FIN.
const lingerWait = 2 * time.Second

// acceptor accepts loopback TCP connections and runs serve for each on its
// own goroutine until close.
type acceptor struct {
	ln    net.Listener
	serve func(net.Conn)
	wg    sync.WaitGroup // the accept loop and every serve call

	mu     sync.Mutex            // guards live and closed
	live   map[net.Conn]struct{} // connections being served
	closed bool                  // close has begun: refuse new connections

	once sync.Once
}

// listen starts an acceptor on 127.0.0.1 and registers its close with
// t.Cleanup.
func listen(t testing.TB, serve func(net.Conn)) *acceptor {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a := &acceptor{ln: ln, serve: serve, live: make(map[net.Conn]struct{})}
	a.wg.Add(1)
	go a.loop()
	t.Cleanup(a.close)
	return a
}

// loop accepts until the listener is closed.
func (a *acceptor) loop() {
	defer a.wg.Done()
	for {
		nc, err := a.ln.Accept()
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		if !a.track(nc) {
			_ = nc.Close()
			continue
		}
		go a.run(nc)
	}
}

// track registers nc unless close has begun.
func (a *acceptor) track(nc net.Conn) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return false
	}
	a.live[nc] = struct{}{}
	a.wg.Add(1)
	return true
}

// run serves nc, then closes and forgets it.
func (a *acceptor) run(nc net.Conn) {
	defer a.wg.Done()
	defer func() {
		a.mu.Lock()
		delete(a.live, nc)
		a.mu.Unlock()
		_ = nc.Close()
	}()
	a.serve(nc)
}

// close stops accepting, closes every live connection and waits for every
// goroutine to return. It is idempotent.
func (a *acceptor) close() {
	a.once.Do(func() {
		a.mu.Lock()
		a.closed = true
		for nc := range a.live {
			_ = nc.Close()
		}
		a.mu.Unlock()
		_ = a.ln.Close()
		a.wg.Wait()
	})
}

// addr returns "127.0.0.1:PORT".
func (a *acceptor) addr() string { return a.ln.Addr().String() }

// lingerClose ends a connection cleanly: FIN (after TLS close_notify), then
// it discards what the client still sends until EOF or lingerWait, so the
// client reads EOF rather than a racy RST. tcp is the connection under nc.
func lingerClose(nc net.Conn, tcp *net.TCPConn) {
	if tc, ok := nc.(*tls.Conn); ok {
		_ = tc.CloseWrite()
	}
	_ = tcp.CloseWrite()
	_ = tcp.SetReadDeadline(time.Now().Add(lingerWait))
	_, _ = io.Copy(io.Discard, tcp)
	_ = tcp.Close()
}

// resetClose ends a connection with a TCP RST (SO_LINGER 0).
func resetClose(tcp *net.TCPConn) {
	_ = tcp.SetLinger(0)
	_ = tcp.Close()
}

// handshake runs the server side of a TLS handshake on nc, bounded by
// handshakeTimeout, and returns the TLS connection; with a nil cfg it
// returns nc as it is.
func handshake(nc net.Conn, cfg *tls.Config) (net.Conn, bool) {
	if cfg == nil {
		return nc, true
	}
	tc := tls.Server(nc, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), handshakeTimeout)
	defer cancel()
	return tc, tc.HandshakeContext(ctx) == nil
}
