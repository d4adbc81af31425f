//go:build linux

package main

import "time"

// conn is one connection's state, the same in both transports.
type conn struct {
	fd      int
	match   int  // bytes of a terminator read so far (see count)
	waiting bool // a request is in flight
	dead    bool
}

// closedLoop is the counting core both transports share: it keeps one
// request in flight per connection until the stop.
type closedLoop struct {
	conns     []conn
	inFlight  int
	responses int64
	sent      int64
	closed    int
	stopping  bool // -d passed: no more requests, only the last responses
}

func newClosedLoop(fds []int) *closedLoop {
	cl := &closedLoop{conns: make([]conn, len(fds))}
	for i, fd := range fds {
		cl.conns[i].fd = fd
	}
	return cl
}

// got counts the bytes b read on connection i and tells whether the
// connection should send its next request.
func (cl *closedLoop) got(i int, b []byte) bool {
	c := &cl.conns[i]
	n, m := count(b, c.match)
	c.match = m
	if n == 0 {
		return false
	}
	cl.responses += int64(n)
	if c.waiting {
		c.waiting = false
		cl.inFlight--
	}
	return !cl.stopping
}

// sending records that connection i's next request is on its way.
func (cl *closedLoop) sending(i int) {
	cl.conns[i].waiting = true
	cl.inFlight++
	cl.sent++
}

// fail marks connection i closed or failed; it sends no more.
func (cl *closedLoop) fail(i int) {
	c := &cl.conns[i]
	if c.dead {
		return
	}
	c.dead = true
	cl.closed++
	if c.waiting {
		c.waiting = false
		cl.inFlight--
	}
}

// over tells whether the run is over at now: past the grace period, or
// past -d with no response left to wait for.
func (cl *closedLoop) over(now, graceEnd time.Time) bool {
	return cl.stopping && (cl.inFlight == 0 || !now.Before(graceEnd))
}

func (cl *closedLoop) result(transport string, wall time.Duration) result {
	return result{responses: cl.responses, sent: cl.sent, closed: cl.closed, wall: wall, transport: transport}
}
