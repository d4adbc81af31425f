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
// responses woke leave together. It writes only what quic-go takes at
// once: a request that may wait for the server's flow control (a body
// above one packet buffer, which the server may read slowly) is left to
// its lane, which waits alone.
type writer struct {
	mu      sync.Mutex
	pending []*submission
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
	// blocked is set when the request may not be written at once (it
	// is above packetBuffer): the lane writes it (writeAll).
	blocked bool
	done    chan struct{} // capacity 1
}

func newWriter() *writer { return &writer{kick: make(chan struct{}, 1)} }

// packetBuffer is the most a Write on a new stream hands quic-go without
// waiting (its MaxPacketBufferSize: it copies that much into the stream's
// next frame and returns). A larger request is left to its lane, which
// may wait for the server's flow control alone. (quic-go's TryWriteAll
// would not wait, but copies the whole request into a frame of its own,
// and sent more datagrams per request when tried for every request: 1.57
// against 1.50 at --streams 16, paired runs.)
const packetBuffer = 1452

// errDraining is a stream not opened on a connection the server sent a
// GOAWAY on.
var errDraining = errors.New("the connection is draining after a GOAWAY")

// submit hands sub to the writer and waits for its stream.
func (w *writer) submit(sub *submission) {
	w.mu.Lock()
	w.pending = append(w.pending, sub)
	w.mu.Unlock()
	select {
	case w.kick <- struct{}{}:
	default:
	}
	<-sub.done
}

// run writes what is submitted until quit is closed, once every lane has
// finished (so nothing is submitted after it).
func (w *writer) run(quit <-chan struct{}) {
	var batch []*submission
	for {
		select {
		case <-w.kick:
		case <-quit:
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

// write opens sub's stream and writes its request, if quic-go takes it at
// once (up to packetBuffer); else it leaves the write to the lane
// (blocked).
func (sub *submission) write() {
	if sub.s.goAway.Load() != 0 { // a GOAWAY came since the lane took the connection: no new stream
		sub.err = errDraining
		return
	}
	sub.str, sub.err = sub.l.openStream(sub.s)
	if sub.err != nil {
		return
	}
	if sub.s.goAway.Load() != 0 { // one came while the stream limit held it back: the request may not go (RFC 9114 §5.2)
		cancel(sub.str, h3.RequestCancelled)
		sub.str, sub.err = nil, errDraining
		return
	}
	sub.sent = time.Now()
	sub.str.SetDeadline(sub.sent.Add(sub.l.Load.Config.Timeout)) //nolint:errcheck // always nil
	if len(sub.req.Wire()) > packetBuffer {
		sub.blocked = true // a packet of its own at least: little to batch
		return
	}
	sub.closed(sub.str.Write(sub.req.Wire()))
}

// writeAll writes a request the writer left to the lane, waiting for the
// server's flow control, within the stream's deadline.
func (sub *submission) writeAll() {
	sub.closed(sub.str.Write(sub.req.Wire()))
}

// closed ends a write of n bytes that ended with err: the stream's send
// side is closed. A server may answer before it read the whole request
// and stop the rest with STOP_SENDING (RFC 9114 §4.1): the close of a
// stopped side then fails harmlessly, and the lane reads the response
// all the same.
func (sub *submission) closed(n int, err error) {
	sub.n, sub.err = n, err
	if err == nil || stopSending(err) {
		sub.str.Close() //nolint:errcheck // see above
	}
}
