package h3fixture

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/quicvarint"
)

// controlPreamble opens the server's control stream: its type, then an
// empty SETTINGS frame, which leaves the client's QPACK dynamic table at
// capacity 0.
var controlPreamble = appendFrame([]byte{streamControl}, frameSettings, nil)

// goAwayLinger is how long a connection stays open after a GOAWAY once
// the client has acknowledged every response below it. quic-go's receive
// streams fail as soon as their connection closes, even with data
// received but not yet read, so a close on the heels of the last
// acknowledgement would lose responses the client's reader goroutines had
// not yet picked up.
const goAwayLinger = 500 * time.Millisecond

// withdrawWait bounds how long reject waits for a stream's first frame to
// tell a request from a stream the client withdrew.
const withdrawWait = time.Second

// conn is one connection being served.
type conn struct {
	s          *Server
	b          *Behaviour
	qc         *quic.Conn
	gen        int     // 0 on the first transport, 1 after a restart
	flight     *flight // acknowledgements, with GoAwayAfter; else nil
	control    *quic.SendStream
	gotControl atomic.Bool // the client's control stream arrived

	// Touched by the accept loop only.
	accepted  int            // request streams accepted and numbered
	goAway    quic.StreamID  // the GOAWAY's id, once goingAway
	goingAway bool           // the GOAWAY was sent
	below     sync.WaitGroup // numbered streams still being served

	// Guarded by s.mu.
	requests int             // requests counted on this connection
	ending   bool            // closing (CloseAfter): count no more requests
	ends     []quic.StreamID // streams the server ended with a FIN or a reset
}

// newConn prepares the state of an accepted connection.
func newConn(s *Server, qc *quic.Conn, gen int) *conn {
	return &conn{s: s, b: &s.b, qc: qc, gen: gen, flight: flightOf(qc.Context())}
}

// serve opens the control stream, reads the client's unidirectional
// streams on a goroutine and accepts request streams until the connection
// ends.
func (c *conn) serve() {
	if c.b.SilentUni {
		if _, err := c.qc.OpenUniStream(); err != nil { // never written
			return
		}
	}
	str, err := c.qc.OpenUniStream()
	if err != nil {
		return
	}
	if _, err := str.Write(controlPreamble); err != nil {
		return
	}
	c.control = str // never closed: closing it is a connection error
	c.s.wg.Go(c.acceptUni)
	c.acceptRequests()
}

// acceptRequests accepts request streams in order of their ids, refuses
// those at or above a GOAWAY's id, numbers the others for the schedules
// and serves each on its own goroutine.
func (c *conn) acceptRequests() {
	for {
		str, err := c.qc.AcceptStream(context.Background())
		if err != nil {
			return
		}
		c.s.counts.streams.Add(1)
		if c.goingAway && str.StreamID() >= c.goAway {
			c.s.wg.Go(func() { c.reject(str) })
			continue
		}
		c.accepted++
		n := c.s.seq.Add(1)
		c.below.Add(1)
		c.s.wg.Go(func() {
			defer c.below.Done()
			c.handle(str, n)
		})
		if c.accepted == c.b.GoAwayAfter {
			c.sendGoAway(str.StreamID() + 4)
		}
	}
}

// sendGoAway sends GOAWAY(id) on the control stream and starts the drain
// that closes the connection.
func (c *conn) sendGoAway(id quic.StreamID) {
	c.goAway, c.goingAway = id, true
	frame := appendFrame(nil, frameGoAway, quicvarint.Append(nil, uint64(id)))
	if _, err := c.control.Write(frame); err != nil {
		return
	}
	c.s.wg.Go(c.drain)
}

// drain waits until the streams below the GOAWAY are finished and the
// client has acknowledged how each ended, then lingers for goAwayLinger
// (the client may close first) and closes the connection with H3_NO_ERROR.
func (c *conn) drain() {
	c.below.Wait()
	c.s.mu.Lock()
	ends := append([]quic.StreamID(nil), c.ends...)
	c.s.mu.Unlock()
	if !c.flight.wait(c.qc.Context(), c.s.done, ends) {
		return
	}
	linger := time.NewTimer(goAwayLinger)
	defer linger.Stop()
	select {
	case <-linger.C:
		_ = c.qc.CloseWithError(CodeNoError, "")
	case <-c.qc.Context().Done():
	case <-c.s.done:
	}
}

// ended records that the server ended stream id with a FIN or a reset.
func (c *conn) ended(id quic.StreamID) {
	if c.flight == nil {
		return
	}
	c.s.mu.Lock()
	c.ends = append(c.ends, id)
	c.s.mu.Unlock()
}

// violation counts a protocol error of the client and closes the
// connection with code.
func (c *conn) violation(code quic.ApplicationErrorCode, msg string) {
	c.s.counts.violations.Add(1)
	_ = c.qc.CloseWithError(code, "h3fixture: "+msg)
}
