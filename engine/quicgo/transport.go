// Package quicgo is HTTP/3's transport: QUIC connections of quic-go
// (github.com/quic-go/quic-go), each carrying up to --streams requests at
// once, one per bidirectional stream. A stream's requests are framed by
// engine/h3 and counted by the engine's counting core (engine/h3decide.go),
// which this package tells what QUIC said.
//
// Each connection (-c) keeps a lane per stream it may have open: a
// goroutine with its own counting core that takes a ticket, opens a
// stream, writes the request's pre-encoded frames, closes its side and
// reads the response, blocking in quic-go's stream calls. The lanes of a
// connection share its QUIC connection and replace it together: one
// handshakes while the others wait. Each worker has one UDP socket
// (quic.Transport), which quic-go reads with recvmmsg and writes with GSO.
package quicgo

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"os"
	"sync"

	"github.com/pummel-dev/pummel/engine"
	"github.com/quic-go/quic-go"
)

// transport is the QUIC transport of one run.
type transport struct {
	load    *engine.Load
	sockets []*socket
	conns   []*conn
	addr    *net.UDPAddr // where every connection goes
	tls     *tls.Config  // every connection's: ALPN h3, the load's trust
	quic    *quic.Config // every connection's (quicConfig)

	mu       sync.Mutex
	sessions map[*session]struct{} // the live QUIC connections, closed by Halt
	halted   bool
}

// socket is a worker's UDP socket and the QUIC transport on it.
type socket struct {
	udp *net.UDPConn
	tr  *quic.Transport
}

// New makes the QUIC transport of run r: -c connections spread over the
// workers, each worker with a UDP socket of its own.
func New(r *engine.Load, workers []*engine.Worker) engine.Transport {
	t := &transport{load: r, sessions: make(map[*session]struct{}), tls: r.Dialer.TLS(), quic: quicConfig(r.Config)}
	t.sockets = make([]*socket, len(workers))
	t.conns = make([]*conn, r.Config.Connections)
	for i := range t.conns {
		t.conns[i] = newConn(t, i%len(workers), workers[i%len(workers)])
	}
	return t
}

// Open resolves the target, opens a UDP socket per worker and
// handshakes every connection before the clock starts, Dialers at a time
// (engine.OpenAll); the run fails when not one could be opened.
func (t *transport) Open() error {
	r := t.load
	addr, err := net.ResolveUDPAddr("udp", r.Dialer.Address)
	if err != nil {
		return engine.Unreachable(r.Dialer.Address, err)
	}
	t.addr = addr
	for i := range t.sockets {
		if t.sockets[i], err = openSocket(); err != nil {
			t.closeSockets()
			return err
		}
	}
	opened, firstErr := engine.OpenAll(r.Ctx, len(t.conns), Dialers, r.Config.Timeout,
		func(ctx context.Context, i int) error { return t.conns[i].openFirst(ctx) })
	t.warnBuffers()
	if opened == 0 {
		t.closeSockets()
		if r.Ctx.Err() != nil {
			return r.Ctx.Err()
		}
		return engine.Unreachable(r.Dialer.Address, firstErr) // named by dialError in handshake
	}
	return nil
}

// Dialers is how many connections handshake at once while the run opens.
const Dialers = 64

// openSocket opens a UDP socket for both address families and a QUIC
// transport on it.
func openSocket() (*socket, error) {
	silenceBufferLog.Do(func() { os.Setenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING", "true") }) //nolint:errcheck // warnBuffers says it instead
	udp, err := net.ListenUDP("udp", nil)
	if err != nil {
		return nil, err
	}
	return &socket{udp: udp, tr: &quic.Transport{Conn: udp}}, nil
}

// silenceBufferLog turns off quic-go's own log line about a small UDP
// buffer, which would land in the middle of the output: warnBuffers says
// it as a warning of the run.
var silenceBufferLog sync.Once

// Start lets every lane go at once, each connection's writer with them;
// the channel is closed once all have finished and every connection and
// socket is closed.
func (t *transport) Start() <-chan struct{} {
	gate, finished, quit := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var lanes, writers sync.WaitGroup
	for _, c := range t.conns {
		writers.Go(func() { c.writer.run(quit) })
		for _, l := range c.lanes {
			lanes.Go(func() {
				<-gate
				l.loop()
			})
		}
	}
	go func() {
		lanes.Wait()
		close(quit)
		writers.Wait()
		t.closeAll()
		close(finished)
	}()
	close(gate)
	return finished
}

// Halt closes every live connection, which ends each stream's blocked read
// or write (the stop rule: engine's Load.halt); a connection that opens
// after it is closed at once (register).
func (t *transport) Halt() {
	t.mu.Lock()
	t.halted = true
	live := make([]*session, 0, len(t.sessions))
	for s := range t.sessions {
		live = append(live, s)
	}
	t.mu.Unlock()
	for _, s := range live {
		s.close()
	}
}

// register records a live connection; it refuses once the run halted.
func (t *transport) register(s *session) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.halted {
		return false
	}
	t.sessions[s] = struct{}{}
	return true
}

func (t *transport) unregister(s *session) {
	t.mu.Lock()
	delete(t.sessions, s)
	t.mu.Unlock()
}

// closeAll closes what is left once every lane finished: the
// connections, then the sockets.
func (t *transport) closeAll() {
	t.Halt()
	t.closeSockets()
}

func (t *transport) closeSockets() {
	for _, s := range t.sockets {
		if s != nil {
			s.tr.Close() //nolint:errcheck // closing: nothing to do about it
			s.udp.Close()
		}
	}
}

// errNoSocket is a connection asked to open after its socket closed.
var errNoSocket = errors.New("the socket is closed")
