package loop

import (
	"io"
	"os"
	"syscall"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/pummel-dev/pummel/engine/sock"
	"golang.org/x/sys/unix"
)

// h2Loop is what an HTTP/2 (h2c) connection of the event loop keeps
// beyond a loopConn: the session, one lane per stream slot, each with its
// own deadline on the loop's queue, and the part of the session's output
// written so far. Only HTTP/2 connections allocate it.
type h2Loop struct {
	engine.H2Streams
	timers []timed // the lanes' deadlines: lane i's is timers[i]
	// off is how much of sess.Out is written; the rest waits for room.
	off int
	// shaking is set from the preface until the server's first SETTINGS;
	// pending is set while the ticket in hand (conn.t) waits for them.
	shaking, pending bool
}

func newH2Loop(c *loopConn) *h2Loop {
	h := &h2Loop{H2Streams: engine.NewH2Streams(c.Load, false), timers: make([]timed, c.Load.Config.StreamsPerConn())}
	for i := range h.timers {
		h.timers[i] = timed{id: c.id, lane: i + 1, index: -1}
	}
	return h
}

// h2Event handles what epoll reported for an HTTP/2 connection's socket.
func (c *loopConn) h2Event(mask uint32) {
	if c.state == connecting {
		if mask&(unix.EPOLLOUT|unix.EPOLLERR|unix.EPOLLHUP) != 0 {
			c.connectDone()
		}
		return
	}
	if mask&unix.EPOLLOUT != 0 && !c.h2Flush() {
		return
	}
	if mask&(unix.EPOLLIN|unix.EPOLLRDHUP|unix.EPOLLHUP|unix.EPOLLERR) != 0 {
		c.h2Read()
	}
}

// h2Connected sends the preface and SETTINGS of a new connection and
// waits, for at most --timeout, for the server's.
func (c *loopConn) h2Connected(now time.Time) {
	h := c.h2
	h.Sess.Reset()
	h.off, h.shaking, h.Heard = 0, true, false
	c.l.deadlines.push(&c.timed, now.Add(c.Load.Config.Timeout))
	c.h2Flush()
}

// h2Ready goes on once the server's first SETTINGS arrived. The ticket
// that waited for them opens its stream if the session can open one; after
// a GOAWAY in the same bytes as the SETTINGS it cannot, and the ticket
// goes on the next connection.
func (c *loopConn) h2Ready(now time.Time) {
	h := c.h2
	h.shaking = false
	c.l.dialing-- // the dial ends with the handshake
	c.l.deadlines.remove(&c.timed)
	if err := h.Handshook(&c.Conn); err != nil {
		c.h2HandshakeFailed(err)
		return
	}
	if o := c.l.opening; o != nil {
		o.opened.Add(1)
		c.Worker.AddConnect(engine.MeasuredPhase, now.Sub(c.dialStart))
		return
	}
	c.Worker.AddConnect(c.Ticket.Phase, now.Sub(c.dialStart))
	if h.pending {
		h.pending = false
		if h.Sess.CanOpen() {
			c.h2Start(c.Ticket, now)
		} else {
			h.Requeue = append(h.Requeue, c.Ticket)
		}
	}
	c.h2Next() // and the tickets to send again, as the server's limit allows
}

// h2Begin sends an open-loop request the loop dispatched, on a new
// connection if need be.
func (c *loopConn) h2Begin(t engine.Ticket) {
	if c.state == closed {
		c.h2Dial(t)
		return
	}
	c.h2Start(t, time.Now())
	c.h2Next()
}

// h2Dial opens a new connection for ticket t, which waits for its
// handshake.
func (c *loopConn) h2Dial(t engine.Ticket) {
	c.Ticket, c.Requests, c.h2.pending = t, 1, true
	c.hold(true)
	c.dial()
}

// h2Next gives the connection its next work once its streams changed:
// in closed loop a stream for each free slot, in open loop its place
// among the connections that can send; then it writes what is queued.
func (c *loopConn) h2Next() {
	h := c.h2
	if c.state == closed || h.shaking {
		return
	}
	if h.Sess.Drained() { // after a GOAWAY: a new connection (engine/h2/goaway.go)
		c.h2Act(h.Drained(&c.Conn, c.Ticket.Phase))
		return
	}
	now := time.Now()
	for h.Sess.CanOpen() { // sent again first: their streams never reached a server
		t, ok := h.Requeued()
		if !ok {
			break
		}
		c.h2Start(t, now)
	}
	if c.l.sched == nil {
		for c.active && h.Sess.CanOpen() {
			t, ok := c.Load.Next(c.Worker)
			if !ok {
				c.setActive(false)
				break
			}
			c.h2Start(t, now)
		}
	} else if h.Sess.CanOpen() {
		c.offer()
	}
	c.hold(h.Sess.Open() > 0 || h.pending)
	c.h2Flush()
}

// h2Continue goes on after the connection closed: a closed-loop
// connection dials again for its next ticket, an open-loop one waits to
// be dispatched one.
func (c *loopConn) h2Continue() {
	c.hold(false)
	if c.l.sched != nil {
		c.offer()
		return
	}
	if !c.active {
		return
	}
	t, ok := c.Load.Next(c.Worker)
	if !ok {
		c.setActive(false)
		return
	}
	c.h2Dial(t)
}

// h2Start opens a stream for ticket t on a free lane.
func (c *loopConn) h2Start(t engine.Ticket, now time.Time) {
	h := c.h2
	req, target := c.H2Target(t)
	slot := h.Start(t, req, target, now)
	c.l.deadlines.push(&h.timers[slot], now.Add(c.Load.Config.Timeout))
	c.hold(true)
}

// h2Flush writes what the session queued, as far as the socket takes it;
// the rest goes on the next output event. It reports false when the
// write failed, which ended the connection.
func (c *loopConn) h2Flush() bool {
	h := c.h2
	for len(h.Sess.Out) > 0 { // more when a large body waited for room
		for h.off < len(h.Sess.Out) {
			n, errno := sock.Write(c.fd, h.Sess.Out[h.off:])
			if n > 0 {
				h.off += n
				c.BytesOut += int64(n)
				continue
			}
			if errno == unix.EAGAIN {
				return true
			}
			c.h2WriteFailed(errno)
			return false
		}
		h.Sess.Sent()
		h.off = 0
		h.Unsent.Flushed()
	}
	return true
}

// h2WriteFailed handles a write the socket refused (h2Streams.writeFailed
// decides); during the handshake it is the dial's failure.
func (c *loopConn) h2WriteFailed(errno syscall.Errno) {
	h := c.h2
	if h.shaking {
		c.h2HandshakeFailed(errno)
		return
	}
	c.h2Act(h.WriteFailed(&c.Conn, errno, h.off == 0, c.Ticket.Phase))
}

// h2Read reads what arrived, into the loop's buffer after the partial
// frame kept from the last read, until the socket is drained.
func (c *loopConn) h2Read() {
	h := c.h2
	buf := c.l.buf
	for reads := 1; ; reads++ {
		n := copy(buf, c.carry)
		m, errno := sock.Read(c.fd, buf[n:])
		switch {
		case errno == unix.EAGAIN:
			c.h2Next()
			return
		case errno != 0:
			c.h2Closed(errno)
			return
		case m == 0:
			c.h2Closed(0)
			return
		}
		c.BytesIn += int64(m)
		h.Heard = h.Heard || !h.shaking
		now := time.Now()
		used, err := h.Sess.Feed(buf[:n+m])
		for _, ev := range h.Sess.Events {
			c.l.deadlines.remove(&h.timers[ev.Slot])
		}
		h.Ended(&c.Conn, now)
		if err != nil {
			c.h2ProtocolFailed(err)
			return
		}
		c.carry = append(c.carry[:0], buf[used:n+m]...)
		if h.shaking && h.Sess.Ready() {
			c.h2Ready(now)
			if c.state == closed {
				return
			}
		}
		if n+m < len(buf) && !c.hangup {
			c.h2Next()
			return // drained: the next input event brings more
		}
		if len(h.Sess.Out) > 0 && !c.h2Flush() { // what the frames call for (acks, window updates), as they come
			return
		}
		if reads == maxReads {
			c.l.readLater(c)
			return
		}
	}
}

// h2StreamExpired ends a stream past its timeout with RST_STREAM(CANCEL):
// one timeout; the connection and its other streams stay.
func (c *loopConn) h2StreamExpired(slot int) {
	h := c.h2
	if !h.Sess.Busy(slot) {
		return
	}
	if h.Unsent.Unwritten(h.Lanes[slot].Seq) { // the socket took none of it in --timeout: the server does not read
		c.h2Act(h.WriteFailed(&c.Conn, os.ErrDeadlineExceeded, false, c.Ticket.Phase))
		return
	}
	h.Expired(&c.Conn, slot)
	c.h2Next()
}

// h2Expired handles the connection's own deadline: a handshake with no
// SETTINGS in --timeout.
func (c *loopConn) h2Expired() {
	c.h2HandshakeFailed(h2.ErrNoSettings)
}

// h2Closed handles the server's close or reset, or a read error
// (h2Streams.closed decides); during the handshake it is the dial's
// failure.
func (c *loopConn) h2Closed(errno syscall.Errno) {
	var err error = io.EOF // a read of 0 bytes: the server closed
	if errno != 0 {
		err = errno
	}
	switch {
	case c.h2.shaking:
		c.h2HandshakeFailed(err)
	case c.l.opening != nil: // opened before the clock and closed since: start dials again
		c.shut()
	default:
		c.h2Act(c.h2.Closed(&c.Conn, err, c.Ticket.Phase))
	}
}

// h2ProtocolFailed ends a connection whose server broke the protocol
// (h2Streams.protocolFailed decides); the GOAWAY goes out before the
// close, as far as the socket takes it.
func (c *loopConn) h2ProtocolFailed(err error) {
	if c.h2.shaking {
		c.h2HandshakeFailed(err)
		return
	}
	then := c.h2.ProtocolFailed(&c.Conn, err, c.Ticket.Phase)
	c.h2Flush()
	c.h2Act(then)
}

// h2HandshakeFailed ends a connection whose handshake failed: before the
// clock the opening fails with err; after it, the ticket that waited for
// the handshake is a connect error, and the connection backs off, as after
// a failed dial.
func (c *loopConn) h2HandshakeFailed(err error) {
	h := c.h2
	if o := c.l.opening; o != nil {
		c.shut()
		o.failed(err)
		return
	}
	if h.pending && !c.Load.Stopped() {
		c.Record(engine.ConnectFailure(err), 1)
	}
	h.pending = false
	c.shut()
	c.hold(false)
	c.backOff()
}

// h2Act closes the connection after a decision of h2Streams and goes on:
// after the backoff, or at once on a new connection, the tickets whose
// streams never reached the server first.
func (c *loopConn) h2Act(then engine.H2Then) {
	h := c.h2
	if h.pending { // a ticket in hand that opened no stream goes on the next connection
		h.Requeue = append(h.Requeue, c.Ticket)
		h.pending = false
	}
	c.shut()
	c.hold(false)
	if then == engine.H2BackOff {
		c.backOff()
		return
	}
	if t, ok := h.Requeued(); ok {
		c.h2Dial(t)
		return
	}
	c.h2Continue()
}

// h2Woken goes on after a backoff: the tickets whose streams never
// reached the server first.
func (c *loopConn) h2Woken() {
	if c.state != closed {
		return
	}
	if t, ok := c.h2.Requeued(); ok {
		c.h2Dial(t)
		return
	}
	c.h2Continue()
}

// h2Shut frees the lanes' deadlines and the session of a connection that
// closes; what was open on it was counted.
func (c *loopConn) h2Shut() {
	h := c.h2
	for i := range h.timers {
		c.l.deadlines.remove(&h.timers[i])
	}
	h.Sess.Abandon()
	if h.shaking {
		c.l.dialing--
	}
	h.off, h.shaking = 0, false
	h.Sess.Sent()
}
