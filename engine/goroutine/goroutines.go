package goroutine

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"

	"github.com/pummel-dev/pummel/engine"
)

// goroutines is the goroutine transport: a goroutine per connection, each
// blocking in its own reads and writes through Go's net package. It serves
// TLS, an injected Config.Dial and systems without the event loop.
type goroutines struct {
	load  *engine.Load
	conns []goRunner

	mu   sync.Mutex            // guards live
	live map[net.Conn]struct{} // connections to wake when the run stops
}

// New makes the goroutine transport of run r: a goroutine per
// connection, the connections spread over workers in turn.
func New(r *engine.Load, workers []*engine.Worker) engine.Transport {
	t := &goroutines{load: r, live: make(map[net.Conn]struct{}, r.Config.Connections)}
	t.conns = make([]goRunner, r.Config.Connections)
	for i := range t.conns {
		if w := workers[i%len(workers)]; r.Config.Protocol == engine.HTTP2 {
			t.conns[i] = newH2Conn(r, w, t)
		} else {
			t.conns[i] = newGoConn(r, w, t)
		}
	}
	return t
}

// Open dials every connection before the clock starts, Dialers at a
// time (engine.OpenAll); the run fails when not one could be opened.
func (t *goroutines) Open() error {
	r := t.load
	opened, firstErr := engine.OpenAll(r.Ctx, len(t.conns), Dialers, r.Config.Timeout,
		func(ctx context.Context, i int) error { return t.conns[i].openFirst(ctx) })
	if opened == 0 {
		if r.Ctx.Err() != nil {
			return r.Ctx.Err()
		}
		return engine.Unreachable(r.Dialer.Address, firstErr)
	}
	return nil
}

// goRunner is a connection of the goroutine transport: HTTP/1.1's goConn
// or HTTP/2's h2Conn.
type goRunner interface {
	// openFirst opens the connection before the clock starts.
	openFirst(ctx context.Context) error
	// loop sends requests until the run stops or runs out of them.
	loop()
}

// Dialers is how many connections open dials at once. A goroutine per
// connection would cost thousands of goroutine stacks, each grown by the
// dial, for no gain: dials on a LAN or loopback take well under a
// millisecond, so 10,000 connections still open in a fraction of a second.
const Dialers = 256

// errStopped is why a connection opened as the run stopped was dropped.
var errStopped = errors.New("the run stopped")

// openFirst dials s's first connection, before the clock starts.
func (s *goConn) openFirst(ctx context.Context) error {
	t := time.Now()
	nc, err := s.Load.Dialer.Open(ctx)
	if err != nil {
		return err
	}
	if s.Load.Config.NoKeepAlive { // each request dials its own: this one only proves the target is there
		nc.Close()
		return nil
	}
	if err := s.tr.keep(nc, s.Worker, t); err != nil {
		return err
	}
	s.attach(nc)
	return nil
}

// keep registers a connection opened before the clock since start and
// counts its connect time; it closes the connection when the run stopped
// meanwhile.
func (t *goroutines) keep(nc net.Conn, w *engine.Worker, start time.Time) error {
	if !t.register(nc) {
		nc.Close()
		return errStopped
	}
	w.AddConnect(engine.MeasuredPhase, time.Since(start))
	return nil
}

// Start lets every connection go at once: their goroutines are started
// first and wait at a gate, as 10,000 of them started one after another
// once the clock ran took the first half second of the run to get going.
// The returned channel is closed when every connection's loop returned.
func (t *goroutines) Start() <-chan struct{} {
	gate, finished := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	for _, c := range t.conns {
		wg.Go(func() {
			<-gate
			c.loop()
		})
	}
	go func() { wg.Wait(); close(finished) }()
	close(gate)
	return finished
}

// Halt wakes every blocked read and write with a deadline in the past
// (the stop rule: load.Halt).
func (t *goroutines) Halt() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for nc := range t.live {
		nc.SetDeadline(time.Unix(1, 0)) //nolint:errcheck // best effort wake-up
	}
}

// register records an open connection; it refuses once the load has
// stopped, which halt could not wake.
func (t *goroutines) register(nc net.Conn) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.load.Halted.Load() {
		return false
	}
	t.live[nc] = struct{}{}
	return true
}

func (t *goroutines) unregister(nc net.Conn) {
	t.mu.Lock()
	delete(t.live, nc)
	t.mu.Unlock()
}
