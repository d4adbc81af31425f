package loop

import (
	"io"
	"os"
	"syscall"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/sock"
	"golang.org/x/sys/unix"
)

// loopConn is a connection of the event loop: a non-blocking socket and
// where it stands. Its loop calls it when its socket has an event, its
// deadline passes or its wake-up comes; conn counts what happens.
type loopConn struct {
	engine.Conn
	timed
	l   *loop
	fd  int   // -1 while disconnected
	gen int32 // counts the sockets this connection has had
	// againGen is gen when the connection was last listed to read on
	// (loop.readLater).
	againGen int32
	state    connState
	// holding is true while a ticket is in hand: being dialed for,
	// written, answered, or waiting for a script's delay.
	holding bool
	// active is true until the connection has nothing more to do (closed
	// loop) — the loop ends when no connection is active.
	active bool
	// off is how much of the batch (req written reps times) is written.
	off int
	// carry holds a partial response header until the rest arrives.
	carry []byte
	// dialStart is when the current dial began.
	dialStart time.Time
	// readable is an input event that came while the batch was still
	// being written; hangup is the peer's close, seen in an event.
	readable, hangup bool
	listed           bool // in its loop's idle list
	// lowWater is the socket's SO_RCVLOWAT; grace how long the batch in
	// flight may sit below it (see armLowWater), 0 until it is armed;
	// graced is set once a grace passed in the batch.
	lowWater int
	grace    time.Duration
	graced   bool
	// h2 is an HTTP/2 connection's state; nil for HTTP/1.1.
	h2 *h2Loop
}

// connState is where a loop connection stands.
type connState uint8

const (
	closed     connState = iota // no socket
	connecting                  // a non-blocking connect under way
	idle                        // connected, nothing in flight
	writing                     // a batch partly written, waiting for room
	awaiting                    // the batch written, waiting for responses
)

func newLoopConn(l *loop, i int) *loopConn {
	c := &loopConn{l: l, fd: -1}
	c.id, c.index = i, -1
	c.Init(l.load, l.worker, &l.out, &l.last)
	if l.load.Config.Protocol == engine.HTTP2 {
		c.h2 = newH2Loop(c)
	}
	return c
}

// start gives the connection its first work when the clock starts.
func (c *loopConn) start() {
	if c.h2 != nil && c.l.sched == nil {
		c.setActive(true)
		if c.state == closed {
			c.h2Continue()
		} else {
			c.h2Next()
		}
		return
	}
	if c.l.sched != nil {
		c.offer()
		return
	}
	c.setActive(true)
	c.nextTicket()
}

// nextTicket takes the next closed-loop ticket and begins it, after the
// script's delay if it has one; without one the connection retires.
func (c *loopConn) nextTicket() {
	t, ok := c.Load.Next(c.Worker)
	if !ok {
		c.setActive(false)
		return
	}
	d, ok := c.ScriptDelay(t)
	switch {
	case !ok:
		c.l.wakes.set(&c.timed, time.Now()) // counted; the next ticket comes from the loop, not from here
	case d > 0:
		c.Ticket = t
		c.hold(true)
		c.l.wakes.set(&c.timed, time.Now().Add(d))
	default:
		c.begin(t)
	}
}

// begin sends the ticket's requests, on a new connection if need be.
func (c *loopConn) begin(t engine.Ticket) {
	if c.h2 != nil {
		c.h2Begin(t)
		return
	}
	c.hold(true)
	if !c.Take(t) {
		c.hold(false)
		c.l.wakes.set(&c.timed, time.Now()) // a script failure, counted: go on from the loop
		return
	}
	if c.state == idle && (c.hangup || c.readable) {
		c.readIdle() // what came while it sat idle, before the clock
	}
	if c.state == closed {
		c.dial()
		return
	}
	c.send(time.Now())
}

// dial starts a non-blocking connect.
func (c *loopConn) dial() {
	now := time.Now()
	c.dialStart = now
	fd, err := c.l.socket()
	if err != nil {
		c.dialFailed(err)
		return
	}
	c.fd, c.gen, c.state, c.hangup, c.readable, c.lowWater = fd, c.gen+1, connecting, false, false, 1
	c.l.dialing++
	ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLOUT | unix.EPOLLRDHUP | unix.EPOLLET}
	setIndex(&ev, int32(c.id), c.gen)
	if err := unix.EpollCtl(c.l.epfd, unix.EPOLL_CTL_ADD, fd, &ev); err != nil {
		c.shut()
		c.dialFailed(err)
		return
	}
	if err := c.l.connect(fd); err != nil && err != unix.EINPROGRESS {
		c.shut()
		c.dialFailed(err)
		return
	}
	c.l.deadlines.push(&c.timed, now.Add(c.Load.Config.Timeout))
}

// event handles what epoll reported for the socket.
func (c *loopConn) event(mask uint32) {
	if mask&(unix.EPOLLRDHUP|unix.EPOLLHUP) != 0 {
		c.hangup = true
	}
	if c.h2 != nil {
		c.h2Event(mask)
		return
	}
	in := mask&(unix.EPOLLIN|unix.EPOLLRDHUP|unix.EPOLLHUP|unix.EPOLLERR) != 0
	switch c.state {
	case connecting:
		if mask&(unix.EPOLLOUT|unix.EPOLLERR|unix.EPOLLHUP) != 0 {
			c.connectDone()
		}
	case writing:
		c.readable = c.readable || in
		if mask&(unix.EPOLLOUT|unix.EPOLLERR|unix.EPOLLHUP) != 0 {
			c.write()
		}
	case awaiting:
		if in {
			c.read()
		}
	case idle:
		if in && c.l.opening != nil {
			c.readable = true // looked at when the clock starts
		} else if in {
			c.readIdle()
		}
	}
}

// connectDone finishes a dial whose socket became writable or failed.
func (c *loopConn) connectDone() {
	c.l.deadlines.remove(&c.timed)
	if errno, err := unix.GetsockoptInt(c.fd, unix.SOL_SOCKET, unix.SO_ERROR); err != nil || errno != 0 {
		if err == nil {
			err = syscall.Errno(errno)
		}
		c.shut()
		c.dialFailed(err)
		return
	}
	now := time.Now()
	c.state = idle
	c.Attached()
	if c.h2 != nil {
		c.h2Connected(now) // the dial ends with the handshake
		return
	}
	c.l.dialing--
	if o := c.l.opening; o != nil {
		o.opened.Add(1)
		c.Worker.AddConnect(engine.MeasuredPhase, now.Sub(c.dialStart))
		if c.Load.Config.NoKeepAlive { // each request dials its own: this one only proved the target is there
			c.shut()
		}
		return
	}
	c.Worker.AddConnect(c.Ticket.Phase, now.Sub(c.dialStart))
	if !c.holding {
		c.offer()
		return
	}
	start := now // keep-alive latency excludes the dial
	if c.Load.Config.NoKeepAlive {
		start = c.dialStart
	}
	c.send(start)
}

// dialFailed counts a failed dial against the ticket in hand and backs off.
func (c *loopConn) dialFailed(err error) {
	if o := c.l.opening; o != nil {
		o.failed(err)
		return
	}
	var d time.Duration
	if c.holding && (c.h2 == nil || c.h2.pending) {
		d = c.Conn.DialFailed(err)
	} else {
		d = c.NextBackoff()
	}
	if c.h2 != nil {
		c.h2.pending = false
	}
	c.hold(false)
	c.l.wakes.set(&c.timed, time.Now().Add(d))
}

// send starts writing the batch in hand at start, the start of its latency.
func (c *loopConn) send(start time.Time) {
	c.Wrote(start)
	c.off, c.grace, c.graced = 0, 0, false
	c.state = writing
	c.l.deadlines.push(&c.timed, start.Add(c.Load.Config.Timeout))
	c.write()
}

// write writes what is left of the batch, as far as the socket takes it.
func (c *loopConn) write() {
	total := len(c.Req) * c.Reps
	for c.off < total {
		p := c.Req[c.off%len(c.Req):]
		p = p[:min(len(p), total-c.off)]
		n, errno := sock.Write(c.fd, p)
		if n > 0 {
			c.off += n
			c.BytesOut += int64(n)
			continue
		}
		if errno == unix.EAGAIN {
			return // the rest when the socket has room: an output event
		}
		c.writeFailed(errno)
		return
	}
	c.state = awaiting
	if c.readable || c.hangup {
		c.readable = false
		c.read()
		return
	}
	c.armLowWater()
}

// writeFailed handles a failed write. A reused connection the server had
// closed before the batch reached it is a reconnect, and the batch goes
// on a new one; a write that failed otherwise, or after some of the batch
// went out, is a write error of every request in it.
func (c *loopConn) writeFailed(errno syscall.Errno) {
	c.l.deadlines.remove(&c.timed)
	c.shut()
	if c.Conn.WriteFailed(errno, c.off == 0) {
		c.dial()
		return
	}
	c.afterFailure()
}

// read reads what arrived, once, into the loop's buffer, after the partial
// header kept from the last read; it reads again while the buffer fills, or
// to the end when the peer closed. Whatever arrives when nothing is in
// flight was not asked for.
func (c *loopConn) read() {
	buf := c.l.buf
	for reads := 1; ; reads++ {
		n := copy(buf, c.carry)
		m, errno := sock.Read(c.fd, buf[n:])
		switch {
		case errno == unix.EAGAIN:
			return
		case errno != 0:
			c.readFailed(errno)
			return
		case m == 0:
			c.readFailed(0)
			return
		}
		c.BytesIn += int64(m)
		now := time.Now()
		used, nx := c.Received(buf[:n+m], now, &c.l.hp)
		c.carry = append(c.carry[:0], buf[used:n+m]...)
		switch nx {
		case engine.Ready:
			c.batchDone(now)
			return
		case engine.Reopen:
			c.reopen()
			return
		}
		if n+m < len(buf) && !c.hangup {
			c.armLowWater()
			return // the socket is drained: the next input event brings more
		}
		if reads == maxReads {
			c.l.readLater(c)
			return
		}
	}
}

// readIdle reads a connection with nothing in flight: bytes there were
// not asked for (an error of their own), and a close or reset the server
// made is a reconnect. Either way the connection goes, and what it was to
// do next goes on a new one.
func (c *loopConn) readIdle() {
	c.readable = false
	m, errno := sock.Read(c.fd, c.l.buf)
	if errno == unix.EAGAIN && !c.hangup {
		return
	}
	if m > 0 {
		c.BytesIn += int64(m)
		c.IdleSeen(c.l.buf[:m])
	} else {
		c.IdleSeen(nil)
	}
	c.shut()
}

// readFailed handles a failed read (errno 0: the server closed) with
// requests in flight (conn.readFailed decides).
func (c *loopConn) readFailed(errno syscall.Errno) {
	var err error = io.EOF
	if errno != 0 {
		err = errno
	}
	c.Conn.ReadFailed(err, time.Now(), c.carry)
	c.afterFailure()
}

// batchDone goes on after every request of the batch ended well.
func (c *loopConn) batchDone(now time.Time) {
	c.l.deadlines.remove(&c.timed)
	c.l.wakes.remove(&c.timed)
	c.batchTimed(now.Sub(c.Sent))
	c.state = idle
	c.hold(false)
	c.afterBatch()
}

// afterBatch gives the connection its next work: the next ticket in closed
// loop, its place among the idle ones in open loop.
func (c *loopConn) afterBatch() {
	if c.l.sched != nil {
		c.offer()
	} else {
		c.l.ready = append(c.l.ready, c)
	}
}

// reopen closes the connection after the batch ended; a new one serves
// what follows.
func (c *loopConn) reopen() {
	c.shut()
	c.hold(false)
	c.afterBatch()
}

// afterFailure closes the connection after a failure and goes on: after a
// backoff when the connection failed before any byte of a response, so
// that a server that drops every connection is not redialed in a hot loop.
func (c *loopConn) afterFailure() {
	c.shut()
	c.hold(false)
	if c.Refused {
		c.backOff()
		return
	}
	c.afterBatch()
}

// backOff waits the connection's backoff before it goes on.
func (c *loopConn) backOff() {
	c.l.wakes.set(&c.timed, time.Now().Add(c.NextBackoff()))
}

// expired handles a deadline: a dial or a request timed out, the request
// perhaps still being written (as the goroutine transport's write fails).
func (c *loopConn) expired() {
	if c.h2 != nil && c.state != connecting {
		c.h2Expired()
		return
	}
	switch c.state {
	case connecting:
		c.shut()
		c.dialFailed(errDialTimeout)
		return
	case writing:
		c.Fail(engine.WriteFailure(os.ErrDeadlineExceeded))
	case awaiting:
		// What arrived under the low-water mark is read first: a batch
		// whose last response is complete is answered, not timed out.
		c.setLowWater(1)
		if c.read(); c.state != awaiting {
			return
		}
		c.Conn.ReadFailed(os.ErrDeadlineExceeded, time.Now(), c.carry)
	default:
		c.Conn.ReadFailed(os.ErrDeadlineExceeded, time.Now(), nil)
	}
	c.afterFailure()
}

// woken goes on after a backoff or a script's delay.
func (c *loopConn) woken() {
	if c.h2 != nil {
		c.h2Woken()
		return
	}
	switch {
	case c.state == awaiting:
		c.lowWaterGrace()
	case c.holding:
		c.begin(c.Ticket) // the delay before the ticket's requests is over
	case c.l.sched != nil:
		c.offer()
	default:
		c.nextTicket()
	}
}

// offer makes an open-loop connection available for the next request due.
func (c *loopConn) offer() {
	if !c.listed {
		c.listed = true
		c.l.idle = append(c.l.idle, c)
	}
}

// hold marks whether a ticket is in hand.
func (c *loopConn) hold(h bool) {
	if h != c.holding {
		c.holding = h
		if h {
			c.l.inHand++
		} else {
			c.l.inHand--
		}
	}
}

// setActive marks whether a closed-loop connection still has work.
func (c *loopConn) setActive(a bool) {
	if a != c.active {
		c.active = a
		if a {
			c.l.busy++
		} else {
			c.l.busy--
		}
	}
}

// shut closes the socket, if open; its epoll registration goes with it.
func (c *loopConn) shut() {
	switch c.state {
	case awaiting:
		c.l.wakes.remove(&c.timed) // a low-water grace
	case connecting:
		c.l.dialing--
	}
	if c.h2 != nil {
		c.h2Shut()
	}
	if c.fd >= 0 {
		unix.Close(c.fd)
		c.fd = -1
	}
	c.Detached()
	c.state, c.hangup, c.readable = closed, false, false
	c.carry = c.carry[:0]
	c.l.deadlines.remove(&c.timed)
}

// errDialTimeout is a dial that outlived --timeout.
var errDialTimeout = os.ErrDeadlineExceeded
