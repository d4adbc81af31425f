package goroutine

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"strings"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/pummel-dev/pummel/internal/wait"
	"github.com/pummel-dev/pummel/stats/record"
	"golang.org/x/net/http2"
)

// h2Conn is an HTTP/2 connection of the goroutine transport: one goroutine
// writes and reads a net.Conn that carries up to --streams requests at
// once, each on its own stream in its own lane. The session (package h2)
// turns bytes into stream events; conn counts each by the counting rule,
// which in HTTP/2's terms is: a stream whose HEADERS were written ends
// exactly once, as a response or as one error, and nothing is sent twice.
type h2Conn struct {
	engine.Conn      // the counting core; its HTTP/1.1 fields are unused
	engine.H2Streams // the session and its streams
	tr               *goroutines
	own              engine.Outbox
	nc               net.Conn // nil while disconnected
	wire             *wire
	// buf is the read buffer; buf[:carry] holds a partial frame.
	buf   []byte
	carry int
	// next is a ticket taken and not yet sent: in open loop until it is
	// due, or while no stream may open; done is set once the run has no
	// more tickets for this connection.
	next     engine.Ticket
	hasNext  bool
	done     bool
	sendAt   time.Time // when next may go: its due time, or after a script's delay
	deadline time.Time // the connection's read deadline
	// writeBy is the connection's write deadline: the earliest open
	// stream's timeout, so that a server that stops reading cannot hold a
	// write past it (moved once per slack, as deadline).
	writeBy time.Time
}

// h2ReadBuffer is an HTTP/2 connection's first read buffer: room for a
// few small responses of each stream; it grows to hold a whole frame.
const h2ReadBuffer = 4 << 10

func newH2Conn(r *engine.Load, w *engine.Worker, tr *goroutines) *h2Conn {
	h := &h2Conn{tr: tr, wire: newWire(), buf: make([]byte, h2ReadBuffer)}
	h.Init(r, w, &h.own, nil)
	h.H2Streams = engine.NewH2Streams(r, h.Scripted())
	return h
}

// openFirst dials the connection and waits for the server's SETTINGS
// before the clock starts.
func (h *h2Conn) openFirst(ctx context.Context) error {
	t := time.Now()
	nc, err := h.handshake(ctx)
	if err == nil {
		err = h.tr.keep(nc, h.Worker, t)
	}
	if err != nil {
		return err
	}
	h.attach(nc)
	return nil
}

// handshake dials, checks that TLS chose HTTP/2, sends the preface and
// reads until the server's first SETTINGS: streams open only once its
// stream limit is known.
func (h *h2Conn) handshake(ctx context.Context) (net.Conn, error) {
	nc, err := h.Load.Dialer.Open(ctx)
	if err != nil {
		if errors.As(err, new(tls.AlertError)) && strings.Contains(err.Error(), "no application protocol") {
			return nil, &engine.NoHTTP2Error{} // a server that refuses every protocol offered
		}
		return nil, err
	}
	if tc, ok := nc.(*tls.Conn); ok {
		if p := tc.ConnectionState().NegotiatedProtocol; p != http2.NextProtoTLS {
			nc.Close()
			return nil, &engine.NoHTTP2Error{ALPN: p}
		}
	}
	h.Sess.Reset()
	h.wire.attach(nc)
	h.carry = 0
	nc.SetDeadline(time.Now().Add(h.Load.Config.Timeout)) //nolint:errcheck // a closed conn fails the write
	err = h.wire.send(h.Sess.Out)
	h.Sess.Sent()
	for err == nil && !h.Sess.Ready() {
		var n int
		n, err = h.wire.Read(h.buf[h.carry:])
		if n > 0 {
			err = h.feed(n, time.Now())
		}
	}
	if err == nil {
		err = h.wire.send(h.Sess.Out) // the SETTINGS ack
		h.Sess.Sent()
	}
	if err == nil {
		err = h.Handshook(&h.Conn)
	}
	h.wire.handTo(&h.Conn)
	if err != nil {
		engine.CloseNow(nc)
		h.wire.attach(nil)
		if engine.IsTimeout(err) {
			return nil, h2.ErrNoSettings
		}
		return nil, err
	}
	return nc, nil
}

// loop sends requests until the run stops or runs out of requests.
func (h *h2Conn) loop() {
	defer h.finish()
	for !h.Load.Stopped() {
		if h.nc == nil {
			if !h.take() {
				return
			}
			if !h.reopen() {
				continue
			}
		}
		h.fill()
		if !h.flush() {
			continue
		}
		if h.Sess.Open() == 0 {
			if h.Sess.Drained() { // a GOAWAY, all its streams ended: a new connection (engine/h2/goaway.go)
				h.act(h.Drained(&h.Conn, h.next.Phase))
				continue
			}
			if !h.take() {
				return
			}
		}
		h.read()
	}
}

// take makes sure a ticket is in hand; it reports false when the run has
// none left for this connection.
func (h *h2Conn) take() bool {
	if !h.hasNext {
		if h.next, h.hasNext = h.Requeued(); h.hasNext {
			h.sendAt = time.Time{} // it was due already
		}
	}
	for !h.hasNext && !h.done {
		h.next, h.hasNext = h.Load.Next(h.Worker)
		h.done = !h.hasNext
		if h.hasNext && h.Worker.Script != nil {
			h.h2Ready(time.Now())
		} else {
			h.sendAt = h.next.Due
		}
	}
	return h.hasNext
}

// reopen opens a new connection for the ticket in hand; a failed dial is
// a connect error of that request, and waits its backoff.
func (h *h2Conn) reopen() bool {
	t := time.Now()
	nc, err := h.handshake(h.Load.Ctx)
	if err == nil && !h.tr.register(nc) {
		nc.Close()
		err = errStopped
	}
	if err != nil {
		if !h.Load.Stopped() {
			h.hasNext = false
			_, target := h.H2Target(h.next)
			h.RecordFailure(h.next.Phase, time.Now(), target, engine.ConnectFailure(err), 1)
			h.sleep(h.NextBackoff())
		}
		return false
	}
	h.Worker.AddConnect(h.next.Phase, time.Since(t))
	h.attach(nc)
	return true
}

// fill opens a stream for each ticket whose time came, while the session
// takes more.
func (h *h2Conn) fill() {
	for h.Sess.CanOpen() && h.take() {
		now := time.Now()
		if now.Before(h.sendAt) {
			return // not yet due, or a script's delay: the read waits for it
		}
		if !h.next.Due.IsZero() && h.Load.TooLate(h.next.Due, now) {
			h.hasNext, h.done = false, true
			return
		}
		req, target := h.h2Request()
		h.hasNext = false
		if req == nil {
			continue // the script failed, and that was counted
		}
		h.Start(h.next, req, target, now)
	}
}

// flush writes what the session queued, in one write. A failed write
// ends every open stream as a write error, and the connection.
func (h *h2Conn) flush() bool {
	for first := true; len(h.Sess.Out) > 0; first = false { // more when a large body waited for room
		h.moveWriteDeadline(time.Now())
		err := h.wire.send(h.Sess.Out)
		untouched := first && h.wire.written == 0
		h.Sess.Sent()
		h.wire.handTo(&h.Conn)
		if err != nil {
			h.act(h.H2Streams.WriteFailed(&h.Conn, err, untouched, h.next.Phase))
			return false
		}
		h.Unsent.Flushed()
	}
	return true
}

// moveWriteDeadline makes sure the write deadline lies no later than the
// earliest open stream's timeout (up to deadlineSlack late): a server that
// stops reading cannot hold a write, over TLS either, past --timeout.
func (h *h2Conn) moveWriteDeadline(now time.Time) {
	first, ok := h.earliest()
	if !ok {
		first = now.Add(h.Load.Config.Timeout)
	}
	if h.writeBy.Before(first) || h.writeBy.After(first.Add(h.Load.DeadlineSlack)) {
		h.writeBy = first.Add(h.Load.DeadlineSlack)
		h.nc.SetWriteDeadline(h.writeBy) //nolint:errcheck // a closed conn fails the write that follows
	}
}

// earliest is the earliest open stream's timeout; ok is false with none open.
func (h *h2Conn) earliest() (first time.Time, ok bool) {
	for i := range h.Lanes {
		if h.Sess.Busy(i) {
			if due := h.Lanes[i].Sent.Add(h.Load.Config.Timeout); !ok || due.Before(first) {
				first, ok = due, true
			}
		}
	}
	return first, ok
}

// read reads what arrived, until the earliest timeout or the next
// request's send time.
func (h *h2Conn) read() {
	h.moveDeadline(time.Now())
	if h.Load.Stopped() { // after the deadline moved: the stop rule, load.halt
		return
	}
	n, err := h.wire.Read(h.buf[h.carry:])
	h.wire.handTo(&h.Conn)
	if n > 0 {
		h.Heard = true
		now := time.Now()
		if ferr := h.feed(n, now); ferr != nil {
			h.protocolFailed(ferr)
			return
		}
		if !h.deadline.IsZero() && !now.Before(h.deadline) { // bytes that keep coming do not stop the timeouts
			h.expire(now)
		}
	}
	if err == nil || h.Load.Stopped() {
		if err != nil {
			h.shut()
		}
		return
	}
	if engine.IsTimeout(err) {
		h.expire(time.Now())
		return
	}
	h.readFailed(err)
}

// feed hands n bytes just read, after those carried, to the session,
// counts the streams that ended, and keeps a partial frame.
func (h *h2Conn) feed(n int, now time.Time) error {
	data := h.buf[:h.carry+n]
	m, err := h.Sess.Feed(data)
	h.Ended(&h.Conn, now)
	if err != nil {
		return err
	}
	h.carry = copy(h.buf, data[m:])
	if h.carry == len(h.buf) { // a frame larger than the buffer
		h.buf = append(h.buf, make([]byte, min(len(h.buf), h2.MaxFrame))...)
	}
	return nil
}

// expire ends the streams past their timeout with RST_STREAM(CANCEL),
// each a timeout; the connection stays. A request that waited its timeout
// for a server that allows no stream (a limit of 0) is a timeout too, and
// the connection goes.
func (h *h2Conn) expire(now time.Time) {
	if h.Sess.Open() == 0 && h.hasNext && h.next.Due.IsZero() && !h.Sess.CanOpen() {
		h.hasNext = false
		_, target := h.H2Target(h.next)
		h.RecordFailure(h.next.Phase, now, target, engine.Fail(record.Timeout, "the server allowed no stream"), 1)
		h.shut()
		return
	}
	for i := range h.Lanes {
		if h.Sess.Busy(i) && !now.Before(h.Lanes[i].Sent.Add(h.Load.Config.Timeout)) {
			h.Expired(&h.Conn, i)
		}
	}
}

// moveDeadline sets the read deadline to the earliest of the open
// streams' timeouts (up to deadlineSlack late, so that it moves about once
// per slack, not per request) and the next request's send time.
func (h *h2Conn) moveDeadline(now time.Time) {
	first, _ := h.earliest()
	want := h.deadline
	if !first.IsZero() && (want.Before(first) || want.After(first.Add(h.Load.DeadlineSlack))) {
		want = first.Add(h.Load.DeadlineSlack)
	}
	switch {
	case h.hasNext && h.sendAt.After(now) && (first.IsZero() || h.sendAt.Before(want)):
		want = h.sendAt
	case first.IsZero() && h.hasNext && h.sendAt.IsZero():
		want = now.Add(h.Load.Config.Timeout) // a server that allows no stream: see expire
	}
	if !want.Equal(h.deadline) {
		h.deadline = want
		h.nc.SetReadDeadline(want) //nolint:errcheck // a closed conn fails the read that follows
	}
}

// readFailed handles a read that failed: the server closed or reset the
// connection (h2Streams.closed decides).
func (h *h2Conn) readFailed(err error) {
	h.act(h.Closed(&h.Conn, err, h.next.Phase))
}

// protocolFailed ends a connection whose server broke the protocol
// (h2Streams.protocolFailed decides); the GOAWAY goes out before the
// close, within what is left of the write deadline.
func (h *h2Conn) protocolFailed(err error) {
	then := h.H2Streams.ProtocolFailed(&h.Conn, err, h.next.Phase)
	h.wire.send(h.Sess.Out) //nolint:errcheck // the GOAWAY, as a courtesy
	h.Sess.Sent()
	h.wire.handTo(&h.Conn)
	h.act(then)
}

// act closes the connection after a decision, and waits the backoff if
// the decision says so.
func (h *h2Conn) act(then engine.H2Then) {
	h.shut()
	if then == engine.H2BackOff && !h.Load.Stopped() {
		h.sleep(h.NextBackoff())
	}
}

// attach makes nc the connection's socket.
func (h *h2Conn) attach(nc net.Conn) {
	h.nc, h.deadline, h.writeBy, h.Heard = nc, time.Time{}, time.Time{}, false
	nc.SetDeadline(time.Time{}) //nolint:errcheck // a closed conn fails the read that follows
	h.wire.attach(nc)
	h.Attached()
}

// shut closes the connection, if open; streams still open were counted.
func (h *h2Conn) shut() {
	h.Sess.Abandon()
	if h.nc != nil {
		h.tr.unregister(h.nc)
		engine.CloseNow(h.nc)
		h.nc = nil
		h.wire.attach(nil)
	}
	h.Detached()
	h.carry = 0
}

// sleep waits d, unless the run stops first.
func (h *h2Conn) sleep(d time.Duration) {
	wait.For(h.Load.Ctx, d) //nolint:errcheck // a stop is seen by the loop
}

// finish hands the last outcomes to the worker and closes the connection.
func (h *h2Conn) finish() {
	h.shut()
	h.TakeBytes(h.next.Phase)
	h.own.Flush(h.Worker)
}

// h2Request is the request the ticket in hand goes out as: the one built
// before the clock, or, when a script's request() makes each request, its
// HTTP/1.1 text turned into HTTP/2's header block and body. It returns
// nil when the script failed, which was counted.
func (h *h2Conn) h2Request() (*h2.Request, uint32) {
	if !h.Load.FromScript {
		return h.H2Target(h.next)
	}
	raw, err := h.ScriptRequest()
	if err == nil {
		var req *h2.Request
		if req, err = engine.H2FromWire(raw, h.Load.Config.URL.Scheme); err == nil {
			return req, 0
		}
	}
	h.ScriptFailed(h.next, err)
	return nil, 0
}

// h2Ready readies the ticket in hand: the script's delay(), if it has
// one, sets when it may go (sendAt, with an open-loop ticket's due time).
// It reports false when delay() failed: the ticket was counted.
func (h *h2Conn) h2Ready(now time.Time) bool {
	h.sendAt = h.next.Due
	d, ok := h.ScriptDelay(h.next)
	if !ok {
		h.hasNext = false
		return false
	}
	if d > 0 {
		h.sendAt = engine.Later(h.sendAt, now.Add(d))
	}
	return true
}
