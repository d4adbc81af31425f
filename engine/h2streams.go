package engine

import (
	"time"

	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/pummel-dev/pummel/engine/script"
	"github.com/pummel-dev/pummel/stats/record"
	"golang.org/x/net/http2"
)

// h2Streams is what both transports keep of an HTTP/2 connection's
// streams: the session, the lane of each open stream, which streams were
// written, and the tickets to send again on the next connection. Its
// methods end each stream by the counting rule, through c.
type h2Streams struct {
	sess  *h2.Session
	lanes []h2Lane
	// unsent tells the streams whose HEADERS were written from those
	// still queued in sess.Out.
	unsent unsent
	// requeue holds tickets whose streams never reached a server that
	// closed: they open first on the next connection.
	requeue []ticket
	// heard is set once the connection read a byte after its handshake:
	// one that fails before backs off.
	heard bool
}

// h2Lane is one request in flight on a stream.
type h2Lane struct {
	t      ticket
	sent   time.Time
	seq    uint64 // when it started, in unsent's count
	target uint32
}

// unsent tells the streams whose HEADERS were written from those still
// queued: each stream started takes the next number, and a write that
// went out whole marks every number below the next as written.
type unsent struct{ next, written uint64 }

func (u *unsent) started() uint64           { u.next++; return u.next - 1 }
func (u *unsent) flushed()                  { u.written = u.next }
func (u *unsent) unwritten(seq uint64) bool { return seq >= u.written }

func newH2Streams(r *load, keepHeaders bool) h2Streams {
	n := r.cfg.streams()
	return h2Streams{sess: h2.NewSession(h2.Options{Slots: n, KeepBody: r.keepBodySize(), KeepHeaders: keepHeaders}),
		lanes: make([]h2Lane, n)}
}

// start opens a stream for ticket t, its request req and target, in a
// free lane, sent at now; it returns the lane. The caller checked that
// the session can open one.
func (s *h2Streams) start(t ticket, req *h2.Request, target uint32, now time.Time) int {
	slot := 0
	for s.sess.Busy(slot) {
		slot++
	}
	s.lanes[slot] = h2Lane{t: t, sent: now, seq: s.unsent.started(), target: target}
	s.sess.Start(slot, req)
	return slot
}

// ended counts the streams the last Feed ended.
func (s *h2Streams) ended(c *conn, now time.Time) {
	for i := range s.sess.Events {
		ev := &s.sess.Events[i]
		l := &s.lanes[ev.Slot]
		switch ev.Kind {
		case h2.Response:
			scriptErr := ""
			if c.worker.script != nil {
				scriptErr = c.h2ScriptResponse(l.t.phase, ev)
			}
			c.recordResponse(&l.t, l.sent, now, l.target, ev.Status, ev.Body, scriptErr)
		case h2.Reset:
			c.recordFailure(l.t.phase, l.sent, l.target, fail(record.Read, resetCause(ev.Code)), 1)
		case h2.Unprocessed:
			c.recordFailure(l.t.phase, l.sent, l.target, fail(record.Read, "not processed: GOAWAY ("+ev.Code.String()+")"), 1)
		case h2.Malformed:
			c.recordFailure(l.t.phase, l.sent, l.target, fail(record.Read, ev.Cause), 1)
		}
	}
}

// expired ends slot's stream, past its timeout, with RST_STREAM(CANCEL):
// one timeout; the connection and its other streams stay.
func (s *h2Streams) expired(c *conn, slot int) {
	l := &s.lanes[slot]
	f := s.timeoutOf(slot)
	s.sess.Cancel(slot)
	c.recordFailure(l.t.phase, l.sent, l.target, f, 1)
}

// timeoutOf is the timeout of slot's stream, its cause named as HTTP/1.1
// names it: still writing the request (its HEADERS or body had not all
// left), a response begun, or none.
func (s *h2Streams) timeoutOf(slot int) failure {
	switch {
	case s.unsent.unwritten(s.lanes[slot].seq) || s.sess.ProgressOf(slot) == h2.Writing:
		return fail(record.Timeout, causeWriteTimeout)
	case s.sess.ProgressOf(slot) == h2.Responding:
		return fail(record.Timeout, "partial response")
	}
	return fail(record.Timeout, "no response")
}

// timeoutAll ends every open stream as a timeout, each with its cause: the
// connection goes (a write that outlived --timeout left a frame half
// written).
func (s *h2Streams) timeoutAll(c *conn) {
	s.endOpen(c, s.timeoutOf)
}

// resetCause is the cause of a stream the server reset.
func resetCause(code http2.ErrCode) string {
	if code == http2.ErrCodeRefusedStream {
		return "refused stream"
	}
	return "stream reset by the server (" + code.String() + ")"
}

// failOpen ends every open stream with f.
func (s *h2Streams) failOpen(c *conn, f failure) {
	s.endOpen(c, func(int) failure { return f })
}

// endOpen ends every open stream with the failure failureOf gives its
// slot, and frees them all.
func (s *h2Streams) endOpen(c *conn, failureOf func(slot int) failure) {
	for i := range s.lanes {
		if s.sess.Busy(i) {
			c.recordFailure(s.lanes[i].t.phase, s.lanes[i].sent, s.lanes[i].target, failureOf(i), 1)
		}
	}
	s.sess.Abandon()
}

// requeueUnwritten handles a server that closed before a write of which
// no byte left: the streams it was to open never reached the server, and
// their tickets go on a new connection (a reconnect, by the counting
// rule); the streams written before end as closed before responding.
func (s *h2Streams) requeueUnwritten(c *conn, phase int) {
	for i := range s.lanes {
		if !s.sess.Busy(i) {
			continue
		}
		if l := &s.lanes[i]; s.unsent.unwritten(l.seq) {
			s.requeue = append(s.requeue, l.t)
		} else if !c.load.stopped() {
			c.recordFailure(l.t.phase, l.sent, l.target, fail(record.Read, causeClosedBeforeResponse), 1)
		}
	}
	s.sess.Abandon()
	c.worker.addReconnect(phase)
}

// requeued takes a ticket to send again, if one waits.
func (s *h2Streams) requeued() (ticket, bool) {
	n := len(s.requeue)
	if n == 0 {
		return ticket{}, false
	}
	t := s.requeue[n-1]
	s.requeue = s.requeue[:n-1]
	return t, true
}

// h2ScriptResponse hands a response to the script's response().
func (c *conn) h2ScriptResponse(phase int, ev *h2.Event) string {
	c.sc.headers = c.sc.headers[:0]
	for _, f := range ev.Headers {
		c.sc.headers = append(c.sc.headers, script.Header{Name: f.Name, Value: f.Value})
	}
	return c.scriptResponse(phase, ev.Status, ev.Body)
}
