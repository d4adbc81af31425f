package engine

import (
	"bufio"
	"net"
	"time"

	"github.com/pummel-dev/pummel/stats"
	"github.com/valyala/fasthttp"
)

// Backoff bounds for redialing after a failed dial, so that a dead server
// costs little CPU.
const (
	minBackoff = 10 * time.Millisecond
	maxBackoff = time.Second
)

// conn is one connection's state, owned by its goroutine. Only open and
// shut touch the run's registry of open connections.
type conn struct {
	run     *run
	worker  *worker
	nc      net.Conn     // nil while disconnected
	wire    countingConn // wraps nc, counts bytes read
	br      *bufio.Reader
	hdr     fasthttp.ResponseHeader
	body    []byte // the last body, kept only for --expect-body
	batch   stats.Batch
	served  int // responses on the current connection
	backoff time.Duration
}

// countingConn counts the bytes read from the wire.
type countingConn struct {
	net.Conn
	read int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read += int64(n)
	return n, err
}

func newConn(r *run, w *worker) *conn {
	c := &conn{run: r, worker: w}
	c.br = bufio.NewReaderSize(&c.wire, r.cfg.readBufferSize())
	c.hdr.DisableNormalizing()
	return c
}

// loop sends requests until the run stops or runs out of requests.
func (c *conn) loop() {
	defer c.finish()
	for c.run.acquire() {
		c.do()
	}
}

// do carries out one request, which ends as a response or as one error. A
// connection the server closed while idle is reopened and the request sent
// again: that is a reconnect, not an error.
func (c *conn) do() {
	for {
		start := time.Now()
		if c.nc == nil {
			if f := c.open(); f.failed() {
				c.record(f)
				c.sleepBackoff()
				return
			}
			if !c.run.cfg.NoKeepAlive {
				start = time.Now() // keep-alive latency excludes the dial
			}
		}
		reused := c.served > 0
		f := c.roundTrip(start)
		if !f.failed() || c.run.stopped() {
			return
		}
		c.shut()
		if !(reused && f.idle) {
			c.record(f)
			return
		}
		c.worker.addReconnect()
	}
}

// roundTrip writes the request and reads its response.
func (c *conn) roundTrip(start time.Time) failure {
	c.nc.SetDeadline(start.Add(c.run.cfg.Timeout)) //nolint:errcheck // a closed conn fails the write below
	if c.run.stopped() {
		return fail(stats.Timeout, "stopped") // never recorded: the run is over
	}
	n, err := c.nc.Write(c.run.request)
	c.batch.AddBytes(0, int64(n))
	if err != nil {
		return writeFailure(err)
	}
	status, closeConn, f := c.readResponse()
	if f.failed() {
		return f
	}
	latency := time.Since(start)
	c.served++
	c.batch.AddBytes(c.wire.read, 0)
	c.wire.read = 0
	c.worker.done.Add(1)
	if c.run.cfg.Expect.active() {
		if why := c.run.cfg.Expect.check(status, c.body); why != "" {
			c.worker.addError(stats.Validation, why)
		}
	}
	if c.batch.Add(latency, status) {
		c.worker.addBatch(&c.batch)
	}
	if closeConn || c.run.cfg.NoKeepAlive {
		c.shut()
		if !c.run.cfg.NoKeepAlive {
			c.worker.addReconnect()
		}
	}
	return failure{}
}

// record counts a failed request, with the bytes it moved.
func (c *conn) record(f failure) {
	c.batch.AddBytes(c.wire.read, 0)
	c.wire.read = 0
	c.worker.addError(f.class, f.cause)
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
	c.worker.addConnect(time.Since(t))
	c.nc, c.wire.Conn, c.served, c.backoff = nc, nc, 0, 0
	c.br.Reset(&c.wire)
	return failure{}
}

// shut closes the connection, if open.
func (c *conn) shut() {
	if c.nc != nil {
		c.run.unregister(c.nc)
		c.nc.Close()
		c.nc, c.wire.Conn = nil, nil
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
	c.worker.addBatch(&c.batch)
	c.shut()
}
