package goroutine

import (
	"net"
	"runtime"
	"sync"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/http1"
	"github.com/pummel-dev/pummel/internal/wait"
)

// goConn is a connection of the goroutine transport: a goroutine per
// connection, reading and writing through a net.Conn (for TLS, an injected
// Config.Dial, or where there is no event loop). What it reads goes to the
// shared conn, which counts it.
type goConn struct {
	engine.Conn
	tr   *goroutines
	own  engine.Outbox
	last http1.LastHeader
	nc   net.Conn // nil while disconnected
	wire *wire    // nc's byte stream
	// buf is the read buffer; buf[:carry] holds a partial response header
	// carried over to the next read.
	buf   []byte
	carry int
	// idleSince is when the connection last finished a batch: a
	// connection that sat idle is looked at before it is written on.
	idleSince time.Time
	// deadline is the connection's current deadline. It is moved only when
	// a request could outlive it, to deadlineSlack past that request's
	// timeout: a timeout is then detected up to deadlineSlack late, and the
	// runtime's timer is touched about once per slack, not per request.
	deadline time.Time
	sleeper  wait.Sleeper // paces open-loop sends
}

// idlePeek is how long a connection must have sat idle before it is
// looked at for a close the server made meanwhile: closed-loop
// connections are written on again at once and never pay for the look.
const idlePeek = time.Millisecond

func newGoConn(r *engine.Load, w *engine.Worker, tr *goroutines) *goConn {
	s := &goConn{tr: tr, wire: newWire(), buf: make([]byte, r.Config.ReadBuffer())}
	s.Init(r, w, &s.own, &s.last)
	return s
}

// loop sends requests until the run stops or runs out of requests.
func (s *goConn) loop() {
	defer s.finish()
	for {
		t, ok := s.Load.Next(s.Worker)
		if !ok || !s.waitUntil(t.Due) {
			return
		}
		d, ok := s.ScriptDelay(t)
		if !ok || d > 0 && !s.waitUntil(time.Now().Add(d)) {
			continue
		}
		if s.Take(t) {
			s.exchange()
		}
	}
}

// exchange sends the requests in hand, on a new connection if need be,
// and reads their responses.
func (s *goConn) exchange() {
	for {
		start := time.Now()
		if s.nc == nil {
			if !s.dial() {
				return
			}
			if !s.Load.Config.NoKeepAlive {
				start = time.Now() // keep-alive latency excludes the dial
			}
		} else if start.Sub(s.idleSince) > idlePeek && s.closedWhileIdle() {
			s.shut()
			continue
		}
		s.moveDeadline(start)
		if s.Load.Stopped() { // after the deadline moved: the stop rule, load.halt
			return
		}
		if err := s.send(); err != nil {
			untouched := s.wire.written == 0
			s.wire.handTo(&s.Conn)
			retry := s.WriteFailed(err, untouched)
			s.shut()
			if retry {
				continue
			}
			s.backOffIfRefused()
			return
		}
		s.wire.handTo(&s.Conn)
		s.Wrote(start)
		s.await()
		return
	}
}

// send writes the requests in hand.
func (s *goConn) send() error {
	for range s.Reps {
		if err := s.wire.send(s.Req); err != nil {
			return err
		}
	}
	return nil
}

// dial opens a connection for the requests in hand; on failure it counts
// them as connect errors and waits its backoff (conn.dialFailed).
func (s *goConn) dial() bool {
	err := s.open()
	if err == nil {
		return true
	}
	s.sleep(s.DialFailed(err))
	return false
}

// await reads until every request in flight has ended. A large body
// is read through a pooled scratch buffer rather than the connection's
// small one.
func (s *goConn) await() {
	for {
		s.awaitResponse()
		var sp *[]byte
		b := s.buf[s.carry:]
		if s.carry == 0 && s.Parser.Bulk() {
			sp = scratchPool.Get().(*[]byte)
			b = *sp
		}
		n, err := s.wire.Read(b)
		s.wire.handTo(&s.Conn)
		done := n > 0 && s.consume(b[:n], sp != nil)
		if sp != nil {
			scratchPool.Put(sp)
		}
		if done {
			return
		}
		if err != nil {
			s.readFailed(err)
			return
		}
	}
}

// consume hands n bytes just read to the conn, keeping a partial header
// for the next read; it reports whether the batch is over.
func (s *goConn) consume(b []byte, scratch bool) bool {
	data := b
	if !scratch {
		data = s.buf[:s.carry+len(b)]
	}
	m, nx := s.Received(data, time.Now(), &goParsers)
	rest := data[m:]
	if len(rest) > len(s.buf) {
		s.buf = make([]byte, min(2*len(rest), 2*http1.MaxHeaderSize))
	}
	s.carry = copy(s.buf, rest)
	switch nx {
	case engine.Ready:
		s.idleSince = time.Now()
		return true
	case engine.Reopen:
		s.shut()
		s.carry = 0
		return true
	}
	if s.carry == len(s.buf) { // a header larger than the buffer
		s.buf = append(s.buf, make([]byte, len(s.buf))...)
	}
	return false
}

// readFailed handles a read that failed with requests in flight
// (conn.readFailed decides).
func (s *goConn) readFailed(err error) {
	defer s.shut()
	if s.Load.Stopped() {
		return // abandoned at the end of the run, not counted (as wrk)
	}
	if s.Conn.ReadFailed(err, time.Now(), s.buf[:s.carry]) {
		s.sleep(s.NextBackoff())
	}
}

// backOffIfRefused waits the backoff after a connection that failed
// before any byte of a response: a server that resets every connection as
// it accepts it is not redialed in a hot loop.
func (s *goConn) backOffIfRefused() {
	if s.Refused {
		s.sleep(s.NextBackoff())
	}
}

// goParsers lends the goroutine transport's header parsers.
var goParsers http1.HeaderParsers

// scratchPool holds the buffers large bodies are read into, so that a
// large body costs few system calls and no memory per connection.
var scratchPool = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// awaitResponse prepares to read a response. When none of it is buffered
// yet, it first yields: the other connections write their requests or
// read their responses meanwhile, and by the time this one reads, its
// response has usually arrived. Reading at once would mostly find nothing
// (a read that returns EAGAIN, then a wait in the netpoller and a second
// read): the yield saves a system call per response for a goroutine
// switch. Readiness is still learnt only by reading, so a close or reset
// is seen as before.
func (s *goConn) awaitResponse() {
	if s.carry == 0 {
		runtime.Gosched()
		// The direct read skips the deadline that stops the load: the
		// stop rule, load.halt.
		s.wire.direct = !s.Load.Stopped()
	}
}

// closedWhileIdle looks, without waiting, at a connection that sat idle:
// a close or reset the server made meanwhile is a reconnect; bytes nobody
// asked for are an error. It reports whether the connection must go.
func (s *goConn) closedWhileIdle() bool {
	switch s.wire.peek() {
	case peekClosed:
		s.IdleSeen(nil)
		return true
	case peekData:
		n, _ := s.wire.Read(s.buf) // the bytes are there: no wait
		s.wire.handTo(&s.Conn)
		s.IdleSeen(s.buf[:n])
		return true
	}
	return false
}

// moveDeadline makes sure the connection's deadline lies past the
// timeout of a request sent at start.
func (s *goConn) moveDeadline(start time.Time) {
	if due := start.Add(s.Load.Config.Timeout); s.deadline.Before(due) {
		s.deadline = due.Add(s.Load.DeadlineSlack)
		s.nc.SetDeadline(s.deadline) //nolint:errcheck // a closed conn fails the write that follows
	}
}

// open dials a fresh connection and registers it with the run.
func (s *goConn) open() error {
	t := time.Now()
	nc, err := s.Load.Dialer.Open(s.Load.Ctx)
	if err != nil {
		return err
	}
	if !s.tr.register(nc) {
		nc.Close()
		return errStopped
	}
	s.Worker.AddConnect(s.Ticket.Phase, time.Since(t))
	s.attach(nc)
	return nil
}

// attach makes nc the connection's socket.
func (s *goConn) attach(nc net.Conn) {
	s.nc, s.deadline, s.carry, s.idleSince = nc, time.Time{}, 0, time.Now()
	s.wire.attach(nc)
	s.Attached()
}

// shut closes the connection, if open.
func (s *goConn) shut() {
	if s.nc != nil {
		s.tr.unregister(s.nc)
		engine.CloseNow(s.nc)
		s.nc = nil
		s.wire.attach(nil)
	}
	s.Detached()
}

// sleep waits d, unless the run stops first.
func (s *goConn) sleep(d time.Duration) {
	s.waitUntil(time.Now().Add(d))
}

// finish hands the last outcomes to the worker and closes the connection.
func (s *goConn) finish() {
	s.shut()
	s.TakeBytes(s.Ticket.Phase)
	s.own.Flush(s.Worker)
}

// waitUntil sleeps until t (an open-loop request's intended send time, a
// backoff, a script's delay; zero: no wait); it reports false if the run
// stopped first.
func (s *goConn) waitUntil(t time.Time) bool {
	if s.sleeper.Until(s.Load.Ctx, t) != nil {
		return false
	}
	return !s.Load.Stopped()
}
