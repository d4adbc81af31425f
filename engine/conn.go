package engine

import (
	"bufio"
	"net"
	"runtime"
	"time"

	"github.com/pummel-dev/pummel/engine/script"
	"github.com/pummel-dev/pummel/stats"
)

// Backoff bounds for redialing after a failed dial, so that a dead server
// costs little CPU.
const (
	minBackoff = 10 * time.Millisecond
	maxBackoff = time.Second
)

// batchAge is how long a connection keeps outcomes before handing them to
// its worker, however few.
const batchAge = 100 * time.Millisecond

// conn is one connection's state, owned by its goroutine. Only open and
// shut touch the run's registry of open connections.
type conn struct {
	run    *run
	worker *worker
	nc     net.Conn // nil while disconnected
	wire   *wire    // nc's byte stream, feeding br
	br     *bufio.Reader
	body   []byte // the last body, kept only for --expect-body
	batch  stats.Batch
	phase  int         // the phase of the request in hand, and of batch's outcomes
	timer  *time.Timer // paces open-loop sends; nil until first needed
	// scriptBuf holds what the script's request() returned; ends marks
	// where each request in it ends.
	scriptBuf []byte
	ends      []int
	// scriptHeaders are the last response's headers, for the script's
	// response() only.
	scriptHeaders []script.Header
	memo          headerMemo // the last response header, to skip parsing it again
	// batchSince is when the batch's first outcome was added.
	batchSince time.Time
	served     int // responses on the current connection
	backoff    time.Duration
	// deadline is the connection's current deadline. It is moved only when
	// a request could outlive it, to deadlineSlack past that request's
	// timeout: a timeout is then detected up to deadlineSlack late, and the
	// runtime's timer is touched about once per slack, not per request.
	deadline time.Time
}

func newConn(r *run, w *worker) *conn {
	c := &conn{run: r, worker: w, wire: newWire()}
	c.br = bufio.NewReaderSize(c.wire, r.cfg.readBufferSize())
	return c
}

// loop sends requests until the run stops or runs out of requests.
func (c *conn) loop() {
	defer c.finish()
	for {
		t, ok := c.run.next(c)
		if !ok {
			return
		}
		if t.phase != c.phase { // outcomes of one batch share a phase
			c.takeBytes()
			c.worker.addBatch(c.phase, &c.batch)
			c.phase = t.phase
		}
		c.do(t)
	}
}

// do carries out k pipelined requests (k is 1 without --pipeline); each
// ends as a response or as an error. Requests the server did not answer
// because it closed the connection between responses (announced, or while
// the connection sat idle) are sent again on a new connection: that is a
// reconnect, not an error.
func (c *conn) do(t ticket) {
	req, k := c.prepare(t)
	for k > 0 {
		start := time.Now()
		if c.nc == nil {
			if f := c.open(); f.failed() {
				c.record(f, k)
				c.sleepBackoff()
				return
			}
			if !c.run.cfg.NoKeepAlive {
				start = time.Now() // keep-alive latency excludes the dial
			}
		}
		answered, f := c.roundTrip(t, start, req, k)
		k -= answered
		req = c.rest(req, answered, k)
		if !f.failed() {
			continue // all answered, or the server closed: send the rest anew
		}
		if c.run.stopped() {
			return // abandoned at the end of the run, not counted (as wrk)
		}
		idleClose := f.idle && c.served > 0
		c.shut()
		if !idleClose {
			c.record(f, k) // the failed request and those queued behind it
			return
		}
		c.worker.addReconnect(c.phase)
	}
}

// prepare returns the bytes of the ticket's requests and how many they
// are: the prebuilt batch, or what the script's request() returned, which
// may hold several pipelined requests (with -n, cut to what is left).
func (c *conn) prepare(t ticket) ([]byte, int) {
	if !c.run.dynamic {
		return c.run.requests(t.count), t.count
	}
	req, err := c.scriptRequest()
	if err != nil {
		c.worker.addErrors(c.phase, stats.Validation, err.Error(), t.count)
		return nil, 0
	}
	c.ends = countRequests(req, c.ends)
	k := len(c.ends)
	if extra := k - t.count; extra > 0 && c.run.limit > 0 {
		_, got := c.run.claim(extra)
		k = t.count + got
	}
	return req[:c.ends[k-1]], k
}

// rest returns the bytes of the left requests that follow the first
// answered ones in req.
func (c *conn) rest(req []byte, answered, left int) []byte {
	if answered == 0 || left == 0 {
		return req
	}
	if !c.run.dynamic {
		return c.run.requests(left)
	}
	req = req[c.ends[answered-1]:]
	c.ends = countRequests(req, c.ends)
	return req
}

// roundTrip writes k requests at once and reads their responses. It
// returns how many were answered; fewer than k without a failure means the
// server closed the connection after the last of them.
func (c *conn) roundTrip(t ticket, start time.Time, req []byte, k int) (int, failure) {
	if due := start.Add(c.run.cfg.Timeout); c.deadline.Before(due) {
		c.deadline = due.Add(c.run.deadlineSlack)
		c.nc.SetDeadline(c.deadline) //nolint:errcheck // a closed conn fails the write below
	}
	if c.run.stopped() { // checked after the deadline moved: see run.halt
		return 0, fail(stats.Timeout, "stopped") // never recorded: the run is over
	}
	if err := c.wire.send(req); err != nil {
		return 0, writeFailure(err)
	}
	for i := range k {
		c.awaitResponse()
		status, closeConn, f := c.readResponse()
		if f.failed() {
			return i, f
		}
		c.complete(t, start, status)
		if c.worker.script != nil {
			c.scriptResponse(status)
		}
		if closeConn || c.run.cfg.NoKeepAlive {
			c.shut()
			if !c.run.cfg.NoKeepAlive {
				c.worker.addReconnect(c.phase)
			}
			return i + 1, failure{}
		}
	}
	return k, failure{}
}

// awaitResponse prepares to read a response. When none of it is buffered
// yet, it first yields: the other connections write their requests or
// read their responses meanwhile, and by the time this one reads, its
// response has usually arrived. Reading at once would mostly find nothing
// (a read that returns EAGAIN, then a wait in the netpoller and a second
// read): the yield saves a system call per response for a goroutine
// switch. Readiness is still learnt only by reading, so a close or reset
// is seen as before.
func (c *conn) awaitResponse() {
	if c.br.Buffered() == 0 {
		runtime.Gosched()
		// The direct read skips the deadline, which is also how a stopped
		// run halts its connections: once stopped, a response must fail
		// (abandoned, not counted), not be read.
		c.wire.direct = !c.run.stopped()
	}
}

// complete records one response. Its latency runs from start, the time
// its batch was sent, or in open loop from the ticket's intended send time.
func (c *conn) complete(t ticket, start time.Time, status int) {
	now := time.Now()
	o := stats.Outcome{Latency: now.Sub(start), Sent: start.Sub(c.run.start), Status: status}
	if !t.due.IsZero() {
		o.Uncorrected, o.Latency, o.Lag = o.Latency, now.Sub(t.due), start.Sub(t.due)
	}
	c.served++
	c.takeBytes()
	c.worker.done.Add(1)
	// A status >= 400 is already a status error: a response counts in
	// one class only.
	if c.run.cfg.Expect.active() && status < 400 {
		if why := c.run.cfg.Expect.check(status, c.body); why != "" {
			c.worker.addError(c.phase, stats.Validation, why)
		}
	}
	if c.batch.Len() == 0 {
		c.batchSince = now
	}
	// A batch is handed over when full, or when its first outcome is a
	// tenth of a second old, so the timeline and progress stay current.
	if c.batch.Add(o) || now.Sub(c.batchSince) > batchAge {
		c.worker.addBatch(c.phase, &c.batch)
	}
}

// record counts n requests that failed alike, with the bytes they moved.
func (c *conn) record(f failure, n int) {
	c.takeBytes()
	c.worker.addErrors(c.phase, f.class, f.cause, n)
}

// takeBytes moves the wire's byte counts into the batch.
func (c *conn) takeBytes() {
	c.batch.AddBytes(c.wire.read, c.wire.written)
	c.wire.read, c.wire.written = 0, 0
}

// open dials a fresh connection and registers it with the run.
func (c *conn) open() failure {
	t := time.Now()
	nc, err := c.run.dialer.open(c.run.ctx)
	if err != nil {
		return connectFailure(err)
	}
	if !c.run.register(nc) {
		nc.Close()
		return fail(stats.Connect, "stopped")
	}
	c.worker.addConnect(c.phase, time.Since(t))
	c.attach(nc)
	c.backoff = 0
	return failure{}
}

// attach makes nc the connection's socket.
func (c *conn) attach(nc net.Conn) {
	c.nc, c.served, c.deadline = nc, 0, time.Time{}
	c.wire.attach(nc)
	c.br.Reset(c.wire)
}

// shut closes the connection, if open.
func (c *conn) shut() {
	if c.nc != nil {
		c.run.unregister(c.nc)
		c.nc.Close()
		c.nc = nil
		c.wire.attach(nil)
	}
}

// sleepBackoff waits before the next dial, doubling the wait each time.
func (c *conn) sleepBackoff() {
	c.backoff = min(max(2*c.backoff, minBackoff), maxBackoff)
	t := time.NewTimer(c.backoff)
	defer t.Stop()
	select {
	case <-t.C:
	case <-c.run.ctx.Done():
	}
}

// finish hands the last outcomes to the worker and closes the connection.
func (c *conn) finish() {
	c.shut()
	c.takeBytes()
	c.worker.addBatch(c.phase, &c.batch)
}

// waitUntil sleeps until t, the intended send time of an open-loop
// request; it reports false if the run stopped first.
func (c *conn) waitUntil(t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return !c.run.stopped()
	}
	if c.timer == nil {
		c.timer = time.NewTimer(d)
	} else {
		c.timer.Reset(d)
	}
	select {
	case <-c.timer.C:
		return true
	case <-c.run.ctx.Done():
		return false
	}
}
