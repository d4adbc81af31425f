package loop

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"golang.org/x/sys/unix"
)

// loops is the event-loop transport: one loop per worker, each owning its
// share of the connections.
type loops struct {
	load     *engine.Load
	loops    []*loop
	gate     chan struct{} // closed when the clock starts
	finished chan struct{} // closed when every loop returned
	opening  openPhase
	// family and addr are where the sockets connect; unresolved is why
	// the target's address could not be found, broken why a loop could
	// not be made.
	family             int
	addr               unix.Sockaddr
	unresolved, broken error
}

// New makes the event loop transport of run r: a loop per worker, each
// holding its share of the connections.
func New(r *engine.Load, workers []*engine.Worker) engine.Transport {
	t := &loops{load: r, gate: make(chan struct{}), finished: make(chan struct{})}
	t.family, t.addr, t.unresolved = sockaddr(r.Config, r.Dialer.Address)
	for i, w := range workers {
		n := engine.Shard{Index: i, Count: len(workers)}.Share(int64(r.Config.Connections)) // the loops share -c as parts share a load
		l, err := newLoop(r, w, int(n))
		if err != nil {
			t.broken = fmt.Errorf("event loop: %w", err)
			break
		}
		l.transport, l.opening, l.addr = t, &t.opening, own(t.addr)
		if r.Sched != nil {
			l.sched = &loopSchedule{next: int64(i), stride: int64(len(workers)), total: r.Sched.Total}
		}
		t.loops = append(t.loops, l)
	}
	return t
}

// sockaddr resolves where the run's sockets connect: the Unix socket, or
// the URL's host and port, looked up once.
func sockaddr(cfg *engine.Config, address string) (int, unix.Sockaddr, error) {
	if cfg.UnixSocket != "" {
		return unix.AF_UNIX, &unix.SockaddrUnix{Name: cfg.UnixSocket}, nil
	}
	a, err := net.ResolveTCPAddr("tcp", address)
	if err != nil {
		return 0, nil, err
	}
	if ip4 := a.IP.To4(); ip4 != nil {
		sa := &unix.SockaddrInet4{Port: a.Port}
		copy(sa.Addr[:], ip4)
		return unix.AF_INET, sa, nil
	}
	sa := &unix.SockaddrInet6{Port: a.Port}
	copy(sa.Addr[:], a.IP.To16())
	if a.Zone != "" {
		if ifi, err := net.InterfaceByName(a.Zone); err == nil {
			sa.ZoneId = uint32(ifi.Index)
		}
	}
	return unix.AF_INET6, sa, nil
}

// own returns a copy of sa for one loop: unix.Connect writes into the
// address it is given.
func own(sa unix.Sockaddr) unix.Sockaddr {
	switch a := sa.(type) {
	case *unix.SockaddrInet4:
		c := *a
		return &c
	case *unix.SockaddrInet6:
		c := *a
		return &c
	case *unix.SockaddrUnix:
		c := *a
		return &c
	}
	return sa
}

// Open starts the loops, which Open their connections before the clock
// starts, and waits until they have.
func (t *loops) Open() error {
	if t.broken != nil || t.unresolved != nil {
		t.abandon()
		if t.broken != nil {
			return t.broken
		}
		return fmt.Errorf("%w: %s: %w", engine.ErrUnreachable, t.load.Dialer.Address, t.unresolved)
	}
	t.opening.wg.Add(len(t.loops))
	var wg sync.WaitGroup
	for _, l := range t.loops {
		wg.Go(func() { l.serve(t.gate) })
	}
	go func() { wg.Wait(); close(t.finished) }()
	t.opening.wg.Wait()
	if t.opening.opened.Load() > 0 {
		return nil
	}
	t.load.Halted.Store(true)
	close(t.gate)
	<-t.finished
	if err := t.load.Ctx.Err(); err != nil {
		return err
	}
	return engine.Unreachable(t.load.Dialer.Address, t.opening.firstErr)
}

// abandon closes loops made before one could not be.
func (t *loops) abandon() {
	for _, l := range t.loops {
		l.close()
	}
	t.loops = nil
}

// Start lets the loops go.
func (t *loops) Start() <-chan struct{} {
	close(t.gate)
	return t.finished
}

// Halt wakes every loop, which then sees the load stopped (the stop rule:
// load.Halt).
func (t *loops) Halt() {
	for _, l := range t.loops {
		l.wake()
	}
}

// openPhase is what the loops share while they open their connections
// before the clock starts.
type openPhase struct {
	wg       sync.WaitGroup // one per loop, done when its connections are open
	opened   atomic.Int64   // connections opened, by every loop
	mu       sync.Mutex     // guards firstErr and cutoff
	firstErr error
	cutoff   time.Time // no dial starts after it: a timeout past the first failure
}

// failed notes a dial that failed before the clock.
func (o *openPhase) failed(err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.firstErr == nil {
		o.firstErr = err
		o.cutoff = time.Now()
	}
}

// stopDialing reports whether a loop must start no more dials before the
// clock: a dial failed before any connection opened (the target is not
// there), or a timeout has passed since the first failure (it drops some):
// the connections left are dialed, and counted, once the run has started.
func (o *openPhase) stopDialing(timeout time.Duration) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.firstErr == nil {
		return false
	}
	return o.opened.Load() == 0 || time.Since(o.cutoff) > timeout
}

// maxDialing bounds the dials a loop has under way at once before the
// clock: thousands of SYNs at once would overflow a server's accept queue.
const maxDialing = 256

// open dials the loop's connections before the clock starts, dialing at
// a time, until each is open or failed.
func (l *loop) open() {
	defer l.opening.wg.Done()
	next := 0
	for {
		for l.dialing < maxDialing && next < len(l.conns) && !l.load.Stopped() && !l.opening.stopDialing(l.load.Config.Timeout) {
			if c := l.conns[next]; !l.load.Config.NoKeepAlive || next == 0 {
				c.dial()
			}
			next++
		}
		if l.dialing == 0 || l.load.Stopped() {
			return
		}
		l.wait()
		l.expire()
	}
}

// socket makes a non-blocking socket for the target.
func (l *loop) socket() (int, error) {
	fd, err := unix.Socket(l.transport.family, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	if l.transport.family != unix.AF_UNIX {
		unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1) //nolint:errcheck // latency, not correctness
	}
	return fd, nil
}

// connect starts connecting fd to the target. A Unix socket whose server's
// backlog is full says so at once (EAGAIN): that is a refusal.
func (l *loop) connect(fd int) error {
	err := unix.Connect(fd, l.addr)
	if errors.Is(err, unix.EAGAIN) && l.transport.family == unix.AF_UNIX {
		return unix.ECONNREFUSED
	}
	return err
}

// loopSchedule is a loop's share of an open-loop schedule: of the run's
// total requests, those whose index is next, next+stride, next+2·stride…
type loopSchedule struct {
	next, stride, total int64
}

// nextDue returns when the loop's next request is due; ok is false when
// the loop has no request left (and always in closed loop).
func (s *loopSchedule) nextDue(l *loop) (time.Time, bool) {
	if s == nil {
		return time.Time{}, false
	}
	t, ok := l.load.Scheduled(s.next)
	return t.Due, ok
}

// pending reports whether requests are left.
func (s *loopSchedule) pending() bool { return s != nil && s.next < s.total }

// drop gives up the requests left: the schedule's time is over.
func (s *loopSchedule) drop() { s.next = s.total }

// take returns the ticket of the loop's next request and moves past it.
func (s *loopSchedule) take(l *loop) engine.Ticket {
	t, _ := l.load.Scheduled(s.next)
	s.next += s.stride
	return t
}
