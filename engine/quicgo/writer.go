package quicgo

import (
	"errors"
	"sync"
	"time"

	"github.com/pummel-dev/pummel/engine/h3"
	"github.com/quic-go/quic-go"
)

// writer opens a connection's streams and writes their requests, for all
// of its lanes, in one goroutine. Lanes could each write their own, but
// each write wakes quic-go's sending loop, which Go's scheduler runs next,
// as soon as the writing lane blocks: every request then left in a
// datagram of its own. The writer hands each stream back to its lane as it
// writes the next request, which keeps the lanes ahead of the sending loop
// in the scheduler's queue, so that the requests of the lanes a batch of
// responses woke leave together.
type writer struct {
	mu      sync.Mutex
	pending []*submission
	stopped bool
	kick    chan struct{} // a submission is pending; capacity 1
}

// submission is one request for the writer: the stream it opened, and how
// the write went, come back on done.
type submission struct {
	s    *session
	req  *h3.Request
	l    *lane
	str  *quic.Stream
	n    int   // bytes written
	err  error // of the stream's opening, or of the write
	sent time.Time
	done chan struct{} // capacity 1
}

func newWriter() *writer { return &writer{kick: make(chan struct{}, 1)} }

// errWriterStopped is a submission made after the run stopped.
var errWriterStopped = errors.New("the run stopped")

// errDraining is a stream not opened on a connection the server sent a
// GOAWAY on.
var errDraining = errors.New("the connection is draining after a GOAWAY")

// submit hands sub to the writer and waits for its stream.
func (w *writer) submit(sub *submission) {
	w.mu.Lock()
	if w.stopped {
		w.mu.Unlock()
		sub.err = errWriterStopped
		return
	}
	w.pending = append(w.pending, sub)
	w.mu.Unlock()
	select {
	case w.kick <- struct{}{}:
	default:
	}
	<-sub.done
}

// run writes what is submitted until quit is closed; then it answers what
// is still pending, and every later submission, with errWriterStopped.
func (w *writer) run(quit <-chan struct{}) {
	var batch []*submission
	for {
		select {
		case <-w.kick:
		case <-quit:
			w.mu.Lock()
			w.stopped = true
			batch, w.pending = w.pending, nil
			w.mu.Unlock()
			for _, sub := range batch {
				sub.err = errWriterStopped
				sub.done <- struct{}{}
			}
			return
		}
		for {
			w.mu.Lock()
			batch, w.pending = w.pending, batch[:0]
			w.mu.Unlock()
			if len(batch) == 0 {
				break
			}
			for _, sub := range batch {
				sub.write()
				sub.done <- struct{}{}
			}
		}
	}
}

// write opens sub's stream and writes its request. A server may answer
// before it read the whole request and stop the rest with STOP_SENDING
// (RFC 9114 §4.1): the close of a stopped side then fails harmlessly, and
// the lane reads the response all the same.
func (sub *submission) write() {
	if sub.s.goAway.Load() != 0 { // a GOAWAY came since the lane took the connection: no new stream
		sub.err = errDraining
		return
	}
	sub.str, sub.err = sub.l.openStream(sub.s)
	if sub.err != nil {
		return
	}
	sub.sent = time.Now()
	sub.str.SetDeadline(sub.sent.Add(sub.l.Load.Config.Timeout)) //nolint:errcheck // always nil
	sub.n, sub.err = sub.str.Write(sub.req.Wire())
	if sub.err == nil || stopSending(sub.err) {
		sub.str.Close() //nolint:errcheck // see above
	}
}
