package loop

import (
	"runtime"
	"sync"
	"time"
	"unsafe"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/http1"
	"golang.org/x/sys/unix"
)

// loop is one worker's event loop: it owns the worker's connections and
// runs them all from one locked OS thread, waiting for every socket at
// once in one epoll instance, as wrk's and nginx's loops do. There is no
// goroutine per connection and no Go netpoller on the request path: a
// request costs a write, a share of an epoll_wait and a read.
//
// Sockets are edge-triggered for input, output and the peer's close, and
// registered once: no epoll_ctl per request. A readable socket is read
// once, into the loop's one read buffer, unless the read filled it; only a
// partial response header is kept per connection until the rest arrives.
type loop struct {
	load      *engine.Load
	transport *loops
	addr      unix.Sockaddr // the target, the loop's own copy
	worker    *engine.Worker
	out       engine.Outbox
	epfd      int
	wakefd    int // an eventfd: halt writes it to wake the loop
	conns     []*loopConn
	events    []unix.EpollEvent
	buf       []byte // the read buffer every connection reads into
	hp        http1.HeaderParsers
	last      http1.LastHeader // the last response header, for every connection
	// deadlines orders the dials' and requests' timeouts; wakes the
	// connections' backoffs and delays.
	deadlines deadlineQueue
	wakes     wakeHeap
	// ready holds the closed-loop connections whose batch ended, to be
	// given their next once every event of a wait is handled.
	ready []*loopConn
	// again holds the connections whose read stopped at maxReads with
	// bytes left: they read on after the deadlines due are served.
	again []*loopConn
	// dialing counts the connections whose dial is under way.
	dialing int
	// busy counts the closed-loop connections with work left, inHand
	// the connections holding a ticket; the loop ends when neither has
	// any and no open-loop request is left.
	busy, inHand int
	// batchTime is how long the loop's pipelined batches take, a moving
	// average (see armLowWater).
	batchTime time.Duration
	// sched is this loop's share of an open-loop schedule; nil in
	// closed loop.
	sched *loopSchedule
	// idle holds connected open-loop connections waiting for a request.
	idle []*loopConn
	// opening is set while the connections are opened before the clock.
	opening *openPhase
	done    bool
	// noPwait2 is set when the kernel lacks epoll_pwait2.
	noPwait2 bool

	mu     sync.Mutex // guards closed against wake
	closed bool       // wakefd and epfd are closed
}

// loopReadBuffer is the size of an event loop's read buffer: large bodies
// are read 64 KiB at a time, and one buffer serves all of a loop's
// connections.
const loopReadBuffer = 64 << 10

// maxReads bounds the reads one connection makes in one turn of its
// loop (a MiB): a server that sends without end, fast, cannot keep the
// loop from its deadlines, its stop and its other connections.
const maxReads = 16

// maxEvents bounds the events one epoll_wait returns.
const maxEvents = 512

// wakeIndex marks the wake-up eventfd in an epoll event's data.
const wakeIndex = -1

func newLoop(r *engine.Load, w *engine.Worker, conns int) (*loop, error) {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	wakefd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err != nil {
		unix.Close(epfd)
		return nil, err
	}
	l := &loop{load: r, worker: w, epfd: epfd, wakefd: wakefd,
		events: make([]unix.EpollEvent, min(maxEvents, conns+1)),
		buf:    make([]byte, loopReadBuffer)}
	l.hp = http1.OwnParsers()
	ev := unix.EpollEvent{Events: unix.EPOLLIN}
	setIndex(&ev, wakeIndex, 0)
	if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, wakefd, &ev); err != nil {
		l.close()
		return nil, err
	}
	l.conns = make([]*loopConn, conns)
	for i := range l.conns {
		l.conns[i] = newLoopConn(l, i)
	}
	return l, nil
}

// An epoll event's data holds the connection's index and the generation
// of its socket, so that an event of a socket closed earlier in the same
// batch of events is not taken for its successor's.
func setIndex(ev *unix.EpollEvent, i, gen int32) { ev.Fd, ev.Pad = i, gen }
func index(ev *unix.EpollEvent) (i, gen int32)   { return ev.Fd, ev.Pad }

// serve carries out the loop's share of the load until the load stops or
// the loop runs out of work. It runs on its own locked OS thread, with a
// timer slack of 1 ns so that timed sends leave on time.
func (l *loop) serve(gate <-chan struct{}) {
	runtime.LockOSThread()                         // never unlocked: the thread ends with the loop
	unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0) //nolint:errcheck // best effort precision
	l.open()
	<-gate
	l.poll() // what came while the loop waited at the gate
	l.begin()
	for !l.done && !l.load.Stopped() && !l.idleForGood() {
		l.wait()
		l.expire()
		l.readAgain()
		l.sendReady()
		l.dispatch()
	}
	l.finish()
}

// idleForGood reports whether the loop has nothing more to do.
func (l *loop) idleForGood() bool {
	if l.sched != nil {
		return l.inHand == 0 && !l.sched.pending()
	}
	return l.busy == 0 && l.inHand == 0
}

// begin gives every connection its first work as the clock starts.
func (l *loop) begin() {
	l.opening = nil
	for _, c := range l.conns {
		c.start()
	}
	l.sendReady()
	l.dispatch()
}

// wait waits for events until the next deadline, wake-up or timed send,
// and handles them.
func (l *loop) wait() {
	l.out.Flush(l.worker) // nothing is kept while the loop sleeps
	n, err := l.epollWait(l.timeout())
	if err != nil && err != unix.EINTR {
		l.done = true
		return
	}
	l.handle(n)
}

// handle hands the first n events of the last epoll_wait to their
// connections.
func (l *loop) handle(n int) {
	for i := range n {
		ev := &l.events[i]
		if idx, gen := index(ev); idx == wakeIndex {
			l.done = true
		} else if c := l.conns[idx]; c.gen == gen {
			c.event(ev.Events)
		}
	}
	l.sendReady()
}

// readLater lists c to read on in the loop's next turn: its read stopped
// at maxReads with bytes left.
func (l *loop) readLater(c *loopConn) {
	c.againGen = c.gen
	l.again = append(l.again, c)
}

// readAgain goes on with the reads readLater put off, for the connections
// still on the socket they were reading.
func (l *loop) readAgain() {
	again := l.again
	l.again = nil
	for _, c := range again {
		if c.fd >= 0 && c.gen == c.againGen {
			c.event(unix.EPOLLIN)
		}
	}
	l.again = append(again[:0], l.again...)
}

// sendReady gives the connections whose batch ended their next one.
func (l *loop) sendReady() {
	for i := 0; i < len(l.ready); i++ {
		l.ready[i].nextTicket()
	}
	l.ready = l.ready[:0]
}

// poll handles the events already there, without waiting.
func (l *loop) poll() {
	n, _ := l.epollWait(0)
	l.handle(n)
}

// timeout is how long the next epoll_wait may wait: until the earliest
// deadline, wake-up or timed send; -1 is for ever. A request due while
// every connection is busy waits for one to free, an event: it is no
// reason to wake, or the loop would spin for as long as the server is
// slow.
func (l *loop) timeout() time.Duration {
	next := l.wakes.next()
	if h := l.deadlines.head; h != nil && (next.IsZero() || h.deadline.Before(next)) {
		next = h.deadline
	}
	if due, ok := l.sched.nextDue(l); ok && len(l.idle) > 0 && (next.IsZero() || due.Before(next)) {
		next = due
	}
	if len(l.again) > 0 {
		return 0
	}
	if next.IsZero() {
		return -1
	}
	return max(time.Until(next), 0)
}

// epollWait waits at most d (-1: for ever) with epoll_pwait2, whose
// timeout has nanosecond resolution: a timed send must not wait out
// epoll_wait's whole milliseconds. Kernels before 5.11 lack it; there the
// wait is epoll_wait's, rounded up to the millisecond.
func (l *loop) epollWait(d time.Duration) (int, error) {
	if !l.noPwait2 {
		var ts *unix.Timespec
		var spec unix.Timespec
		if d >= 0 {
			spec = unix.NsecToTimespec(int64(d))
			ts = &spec
		}
		n, _, errno := unix.Syscall6(unix.SYS_EPOLL_PWAIT2, uintptr(l.epfd),
			uintptr(unsafe.Pointer(&l.events[0])), uintptr(len(l.events)), uintptr(unsafe.Pointer(ts)), 0, 0)
		if errno != unix.ENOSYS {
			if errno != 0 {
				return 0, errno
			}
			return int(n), nil
		}
		l.noPwait2 = true
	}
	ms := -1
	if d >= 0 {
		ms = int((d + time.Millisecond - 1) / time.Millisecond)
	}
	return unix.EpollWait(l.epfd, l.events, ms)
}

// expire handles the deadlines and wake-ups that are due.
func (l *loop) expire() {
	now := time.Now()
	for t := l.deadlines.expired(now); t != nil; t = l.deadlines.expired(now) {
		if t.lane > 0 {
			l.owner(t).h2StreamExpired(t.lane - 1)
		} else {
			l.owner(t).expired()
		}
	}
	for t := l.wakes.due(now); t != nil; t = l.wakes.due(now) {
		l.owner(t).woken()
	}
}

// owner is the connection a timed entry belongs to.
func (l *loop) owner(t *timed) *loopConn { return l.conns[t.id] }

// dispatch hands the open-loop requests that are due to connections that
// can send them; a request due when none can waits, and leaves late, or
// not at all once the schedule's time is over (load.tooLate).
func (l *loop) dispatch() {
	if l.sched == nil {
		return
	}
	now := time.Now()
	for {
		due, ok := l.sched.nextDue(l)
		if !ok || due.After(now) || len(l.idle) == 0 {
			return
		}
		if l.load.TooLate(due, now) {
			l.sched.drop()
			return
		}
		c := l.idle[len(l.idle)-1]
		l.idle = l.idle[:len(l.idle)-1]
		c.listed = false
		c.begin(l.sched.take(l))
	}
}

// finish hands over the last outcomes and closes every socket.
func (l *loop) finish() {
	for _, c := range l.conns {
		c.shut()
		c.TakeBytes(c.Ticket.Phase)
	}
	l.out.Flush(l.worker)
	l.close()
}

func (l *loop) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.closed = true
		unix.Close(l.wakefd)
		unix.Close(l.epfd)
	}
}

// wake makes the loop's epoll_wait return: the load stopped (the stop
// rule: load.halt). It is called from another goroutine; once the loop
// closed its descriptors it does nothing, as their numbers may already
// serve other files.
func (l *loop) wake() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		one := [8]byte{1}
		unix.Write(l.wakefd, one[:]) //nolint:errcheck // a full counter is already a wake-up
	}
}
