package quicgo

import (
	"errors"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/h3"
	"github.com/pummel-dev/pummel/internal/wait"
	"github.com/quic-go/quic-go"
)

// lane is one request in flight at a time on a connection: a goroutine
// that opens a stream per request, with its own counting core.
type lane struct {
	engine.Conn
	own     engine.Outbox
	c       *conn
	rd      *h3.Reader
	on      *session     // the connection of the lane's last stream
	sleeper wait.Sleeper // paces open-loop sends and backoffs
	sub     submission   // the lane's request, as the writer takes it
}

func newLane(c *conn) *lane {
	l := &lane{c: c}
	l.sub.l, l.sub.done = l, make(chan struct{}, 1)
	r := c.tr.load
	l.Init(r, c.worker, &l.own, nil)
	l.rd = l.H3Reader()
	return l
}

// loop sends requests until the run stops or runs out of them.
func (l *lane) loop() {
	defer l.finish()
	r := l.c.tr.load
	for {
		t, ok := r.Next(l.Worker)
		if !ok {
			return
		}
		at := t.Due
		d, ok := l.ScriptDelay(t) // a script's delay(), counted when it fails
		if !ok {
			continue
		}
		if d > 0 {
			at = engine.Later(at, time.Now().Add(d))
		}
		if !l.waitUntil(at) {
			return
		}
		if req, target, ok := l.H3Request(&t); ok {
			l.exchange(&t, req, target)
		}
	}
}

// exchange sends ticket t's request on a stream and reads its response;
// a stream that could not open goes on the next connection.
func (l *lane) exchange(t *engine.Ticket, req *h3.Request, target uint32) {
	for {
		s := l.c.acquire(l, t, target)
		if s == nil {
			return
		}
		sub := &l.sub
		sub.s, sub.req, sub.str, sub.n, sub.err, sub.blocked = s, req, nil, 0, nil, false
		l.c.writer.submit(sub)
		if sub.str == nil { // never opened: the request goes on the next connection
			l.c.release(s)
			l.c.lost(s, t.Phase)
			continue
		}
		if sub.blocked {
			sub.writeAll()
		}
		done := l.settle(t, s, target)
		l.c.release(s)
		if done {
			return
		}
	}
}

// openStream opens a stream on s: at once while the server's stream limit
// allows, else once it does. The first time the limit holds a stream
// back, the streams opened on s so far are the server's limit if they are
// fewer than --streams (a warning); more, and the limit only waited for
// the server's credit for streams that had ended. The writer alone calls
// it.
func (l *lane) openStream(s *session) (*quic.Stream, error) {
	str, err := s.qc.OpenStream()
	if err == nil {
		s.opened++
	}
	if err == nil || !errors.As(err, new(*quic.StreamLimitReachedError)) {
		return str, err
	}
	if !s.limitSeen {
		s.limitSeen = true
		if s.opened < l.Load.Config.StreamsPerConn() {
			l.H3StreamLimit(max(s.opened, 1))
		}
	}
	if str, err = s.qc.OpenStreamSync(l.Load.Ctx); err == nil {
		s.opened++
	}
	return str, err
}

// settle reads the response to the request the writer wrote on the
// lane's stream, and counts how it ended. It reports false when the
// request was never written (the connection was gone): it goes on the
// next connection.
func (l *lane) settle(t *engine.Ticket, s *session, target uint32) bool {
	sub := &l.sub
	str, err := sub.str, sub.err
	if err != nil && sub.n == 0 && connClosed(err) && !l.Load.Stopped() {
		l.c.lost(s, t.Phase)
		return false
	}
	l.BytesOut += int64(sub.n)
	status, read := 0, err == nil || stopSending(err)
	if read {
		status, err = l.rd.Read(str, sub.req.Head())
		l.BytesIn += l.rd.BytesIn()
	}
	if err == nil {
		s.served.Add(1)
		l.H3Responded(t, sub.sent, time.Now(), target, status, l.rd)
		return true
	}
	end := l.endOf(err, s, str, read)
	l.H3Failed(t, sub.sent, target, end)
	if end.Kind == engine.H3Lost {
		s.streamsLost.Store(true) // its close was no reconnect, as HTTP/2's with streams open
	}
	if end.Kind == engine.H3Lost || end.Kind == engine.H3NotProcessed {
		l.c.lost(s, t.Phase)
	}
	return true
}

// endOf names how str ended without a response, from err, met while
// reading its response (read) or still writing its request, and ends the
// stream where the client must: a timeout or a malformed response is
// cancelled with its code, the connection kept.
func (l *lane) endOf(err error, s *session, str *quic.Stream, read bool) engine.H3End {
	var se *quic.StreamError
	var pe *h3.ProtocolError
	switch {
	case errors.As(err, &se) && se.Remote:
		cancel(str, h3.RequestCancelled)
		return engine.H3End{Kind: engine.H3Reset, Code: h3.ErrCode(se.ErrorCode)}
	case connClosed(err):
		if id := s.goAway.Load(); id > 0 && uint64(str.StreamID()) >= id-1 {
			return engine.H3End{Kind: engine.H3NotProcessed}
		}
		return engine.H3End{Kind: engine.H3Lost, Cause: closeCause(err)}
	case errors.As(err, &pe):
		cancel(str, pe.Code)
		return engine.H3End{Kind: engine.H3Malformed, Code: pe.Code, Cause: pe.Error()}
	case engine.IsTimeout(err):
		cancel(str, h3.RequestCancelled)
		return engine.H3End{Kind: engine.H3TimedOut, Writing: !read, Started: read && l.rd.Started}
	}
	cancel(str, h3.RequestCancelled)
	return engine.H3End{Kind: engine.H3Malformed, Cause: err.Error()}
}

// cancel ends both sides of str with code: STOP_SENDING and RESET_STREAM.
func cancel(str *quic.Stream, code h3.ErrCode) {
	str.CancelRead(quic.StreamErrorCode(code))
	str.CancelWrite(quic.StreamErrorCode(code))
}

// waitUntil sleeps until at (an open-loop request's intended send time,
// a backoff; zero: no wait); it reports false if the run stopped first.
func (l *lane) waitUntil(at time.Time) bool {
	if l.sleeper.Until(l.Load.Ctx, at) != nil {
		return false
	}
	return !l.Load.Stopped()
}

// finish hands the lane's last outcomes to its worker; the connection's
// own counts go with its last lane.
func (l *lane) finish() {
	l.own.Flush(l.Worker) // each stream's bytes went with its outcome
	if l.c.lanesLeft.Add(-1) == 0 {
		l.c.finish()
	}
}
