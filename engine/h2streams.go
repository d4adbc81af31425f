package engine

import (
	"time"

	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/pummel-dev/pummel/engine/script"
	"github.com/pummel-dev/pummel/stats/record"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// H2Streams is what both transports keep of an HTTP/2 connection's
// streams: the session, the lane of each open stream, which streams were
// written, and the tickets to send again on the next connection. Its
// methods end each stream by the counting rule, through c.
type H2Streams struct {
	Sess  *h2.Session
	Lanes []H2Lane
	// Unsent tells the streams whose HEADERS were written from those
	// still queued in sess.Out.
	Unsent Unsent
	// Requeue holds tickets whose streams never reached a server that
	// closed: they open first on the next connection.
	Requeue []Ticket
	// Heard is set once the connection read a byte after its handshake:
	// one that fails before backs off.
	Heard bool
}

// H2Lane is one request in flight on a stream.
type H2Lane struct {
	ticket Ticket
	Sent   time.Time
	Seq    uint64 // when it started, in unsent's count
	target uint32
}

// Unsent tells the streams whose HEADERS were written from those still
// queued: each stream started takes the next number, and a write that
// went out whole marks every number below the next as written.
type Unsent struct{ next, written uint64 }

func (u *Unsent) started() uint64           { u.next++; return u.next - 1 }
func (u *Unsent) Flushed()                  { u.written = u.next }
func (u *Unsent) Unwritten(seq uint64) bool { return seq >= u.written }

// NewH2Streams makes the streams of one HTTP/2 connection of run r: a
// session with a lane per stream it may keep open, keeping the response
// headers of each stream when keepHeaders (a script's response() reads
// them).
func NewH2Streams(r *Load, keepHeaders bool) H2Streams {
	n := r.Config.StreamsPerConn()
	return H2Streams{Sess: h2.NewSession(h2.Options{Slots: n, KeepBody: r.keepBodySize(), KeepHeaders: keepHeaders}),
		Lanes: make([]H2Lane, n)}
}

// Start opens a stream for ticket t, its request req and target, in a
// free lane, sent at now; it returns the lane. The caller checked that
// the session can open one.
func (s *H2Streams) Start(t Ticket, req *h2.Request, target uint32, now time.Time) int {
	slot := 0
	for s.Sess.Busy(slot) {
		slot++
	}
	s.Lanes[slot] = H2Lane{ticket: t, Sent: now, Seq: s.Unsent.started(), target: target}
	s.Sess.Start(slot, req)
	return slot
}

// Ended counts the streams the last Feed ended.
func (s *H2Streams) Ended(c *Conn, now time.Time) {
	for i := range s.Sess.Events {
		ev := &s.Sess.Events[i]
		l := &s.Lanes[ev.Slot]
		switch ev.Kind {
		case h2.Response:
			scriptErr := ""
			if c.Worker.Script != nil {
				scriptErr = c.h2ScriptResponse(l.ticket.Phase, ev)
			}
			c.recordResponse(&l.ticket, l.Sent, now, l.target, ev.Status, ev.Body, scriptErr)
		case h2.Reset:
			c.RecordFailure(l.ticket.Phase, l.Sent, l.target, Fail(record.Read, resetCause(ev.Code)), 1)
		case h2.Unprocessed:
			c.RecordFailure(l.ticket.Phase, l.Sent, l.target, Fail(record.Read, "not processed: GOAWAY ("+ev.Code.String()+")"), 1)
		case h2.Malformed:
			c.RecordFailure(l.ticket.Phase, l.Sent, l.target, Fail(record.Read, ev.Cause), 1)
		}
	}
}

// Expired ends slot's stream, past its timeout, with RST_STREAM(CANCEL):
// one timeout; the connection and its other streams stay.
func (s *H2Streams) Expired(c *Conn, slot int) {
	l := &s.Lanes[slot]
	f := s.timeoutOf(slot)
	s.Sess.Cancel(slot)
	c.RecordFailure(l.ticket.Phase, l.Sent, l.target, f, 1)
}

// timeoutOf is the timeout of slot's stream, its cause named as HTTP/1.1
// names it: still writing the request (its HEADERS or body had not all
// left), a response begun, or none.
func (s *H2Streams) timeoutOf(slot int) Failure {
	switch {
	case s.Unsent.Unwritten(s.Lanes[slot].Seq) || s.Sess.ProgressOf(slot) == h2.Writing:
		return Fail(record.Timeout, causeWriteTimeout)
	case s.Sess.ProgressOf(slot) == h2.Responding:
		return Fail(record.Timeout, "partial response")
	}
	return Fail(record.Timeout, "no response")
}

// timeoutAll ends every open stream as a timeout, each with its cause: the
// connection goes (a write that outlived --timeout left a frame half
// written).
func (s *H2Streams) timeoutAll(c *Conn) {
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
func (s *H2Streams) failOpen(c *Conn, f Failure) {
	s.endOpen(c, func(int) Failure { return f })
}

// endOpen ends every open stream with the failure failureOf gives its
// slot, and frees them all.
func (s *H2Streams) endOpen(c *Conn, failureOf func(slot int) Failure) {
	for i := range s.Lanes {
		if s.Sess.Busy(i) {
			c.RecordFailure(s.Lanes[i].ticket.Phase, s.Lanes[i].Sent, s.Lanes[i].target, failureOf(i), 1)
		}
	}
	s.Sess.Abandon()
}

// requeueUnwritten handles a server that closed before a write of which
// no byte left: the streams it was to open never reached the server, and
// their tickets go on a new connection (a reconnect, by the counting
// rule); the streams written before end as closed before responding.
func (s *H2Streams) requeueUnwritten(c *Conn, phase int) {
	for i := range s.Lanes {
		if !s.Sess.Busy(i) {
			continue
		}
		if l := &s.Lanes[i]; s.Unsent.Unwritten(l.Seq) {
			s.Requeue = append(s.Requeue, l.ticket)
		} else if !c.Load.Stopped() {
			c.RecordFailure(l.ticket.Phase, l.Sent, l.target, Fail(record.Read, causeClosedBeforeResponse), 1)
		}
	}
	s.Sess.Abandon()
	c.Worker.addReconnect(phase)
}

// Requeued takes a ticket to send again, if one waits.
func (s *H2Streams) Requeued() (Ticket, bool) {
	n := len(s.Requeue)
	if n == 0 {
		return Ticket{}, false
	}
	t := s.Requeue[n-1]
	s.Requeue = s.Requeue[:n-1]
	return t, true
}

// h2ScriptResponse hands a response to the script's response().
func (c *Conn) h2ScriptResponse(phase int, ev *h2.Event) string {
	return c.scriptFieldsResponse(phase, ev.Status, ev.Headers, ev.Body)
}

// scriptFieldsResponse hands a response read as header fields (HTTP/2,
// HTTP/3) to the script's response().
func (c *Conn) scriptFieldsResponse(phase, status int, fields []hpack.HeaderField, body []byte) string {
	c.scriptBufs.headers = c.scriptBufs.headers[:0]
	for _, f := range fields {
		c.scriptBufs.headers = append(c.scriptBufs.headers, script.Header{Name: f.Name, Value: f.Value})
	}
	return c.scriptResponse(phase, status, body)
}
