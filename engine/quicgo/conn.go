package quicgo

import (
	"context"
	"crypto/tls"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/h3"
	"github.com/pummel-dev/pummel/stats"
	"github.com/quic-go/quic-go"
)

// conn is one of the run's -c connections: the QUIC connection its lanes
// share, replaced when it ends, and the lanes.
type conn struct {
	tr     *transport
	socket int
	worker *engine.Worker
	lanes  []*lane
	writer *writer // opens the lanes' streams and writes their requests

	mu sync.Mutex
	// cur is the connection streams open on; nil while there is none (not
	// yet opened, closed, or draining after a GOAWAY).
	cur *session
	// dialing is set while a lane handshakes; wake is closed when it is
	// done, for the lanes that wait.
	dialing bool
	wake    chan struct{}
	// dialAt is when the next handshake may start: after a backoff.
	dialAt time.Time
	// core counts what belongs to the connection, not to a stream: failed
	// handshakes and reconnects (guarded by mu, as own).
	core engine.Conn
	own  engine.Outbox
	// lanesLeft counts the lanes still running: the last one to finish
	// finishes the connection.
	lanesLeft atomic.Int32
}

func newConn(t *transport, socket int, w *engine.Worker) *conn {
	r := t.load
	c := &conn{tr: t, socket: socket, worker: w, wake: make(chan struct{}), writer: newWriter()}
	c.core.Init(r, w, &c.own, nil)
	c.lanes = make([]*lane, r.Config.StreamsPerConn())
	for i := range c.lanes {
		c.lanes[i] = newLane(c)
	}
	c.lanesLeft.Store(int32(len(c.lanes)))
	return c
}

// quicConfig is the QUIC configuration of every connection: the
// handshake bounded by --timeout, no stream the server could open towards
// the client (HTTP/3 has none), and the server's uni streams (control,
// QPACK) allowed.
func quicConfig(cfg *engine.Config) *quic.Config {
	return &quic.Config{
		HandshakeIdleTimeout: cfg.Timeout,
		MaxIdleTimeout:       max(30*time.Second, 2*cfg.Timeout),
		KeepAlivePeriod:      10 * time.Second,
		MaxIncomingStreams:   -1,
	}
}

// session is one QUIC connection's life.
type session struct {
	tr *transport
	qc *quic.Conn
	// goAway is 1 + the id of the server's GOAWAY (streams at or above it
	// will not be processed); 0 before one.
	goAway atomic.Uint64
	// served counts its responses; open counts the lanes using it;
	// retired is set once streams no longer open on it: the last lane to
	// release it then closes it.
	served  atomic.Int64
	open    atomic.Int64
	retired atomic.Bool
	// streamsLost is set once a stream was lost as it closed: the close
	// counted read errors, not a reconnect.
	streamsLost atomic.Bool
	// opened counts the streams opened on it; limitSeen is set once a
	// stream could not open for the server's stream limit. The writer
	// alone, which opens the streams, reads and writes them.
	opened    int
	limitSeen bool
	closeOnce sync.Once
}

// openFirst handshakes the connection before the clock starts.
func (c *conn) openFirst(ctx context.Context) error {
	start := time.Now()
	s, err := c.handshake(ctx)
	if err != nil {
		return err
	}
	c.worker.AddConnect(engine.MeasuredPhase, time.Since(start))
	c.cur = s
	c.core.Attached()
	return nil
}

// handshake opens a QUIC connection and readies it for HTTP/3: ALPN h3
// checked, the client's control stream written, the server's uni streams
// read.
func (c *conn) handshake(ctx context.Context) (*session, error) {
	sock := c.tr.sockets[c.socket]
	if sock == nil {
		return nil, errNoSocket
	}
	qc, err := sock.tr.Dial(ctx, c.tr.addr, c.tr.tls, c.tr.quic) // quic-go clones the TLS configuration per dial
	if err != nil {
		return nil, dialError(err)
	}
	s := &session{tr: c.tr, qc: qc}
	if !c.tr.register(s) {
		s.close()
		return nil, context.Canceled
	}
	if p := qc.ConnectionState().TLS.NegotiatedProtocol; p != "h3" {
		s.close()
		return nil, &engine.NoHTTP3Error{Cause: "ALPN chose " + p}
	}
	ctl, err := qc.OpenUniStream()
	if err == nil {
		_, err = ctl.Write(h3.ClientControl())
	}
	if err != nil {
		s.close()
		return nil, err
	}
	go s.acceptUni()
	return s, nil
}

// acquire returns the connection for lane l's next stream, with the lane
// counted as using it; it handshakes a new one when there is none, or
// waits while another lane does. It returns nil when the ticket ended: the
// handshake failed (a connect error of the ticket) or the run stopped.
func (c *conn) acquire(l *lane, t *engine.Ticket, target uint32) *session {
	for {
		c.mu.Lock()
		if c.tr.load.Stopped() {
			c.mu.Unlock()
			return nil
		}
		if s := c.cur; s != nil {
			if s.goAway.Load() == 0 && s.qc.Context().Err() == nil {
				s.open.Add(1)
				if l.on != s {
					l.on = s
					l.SharesWith(&c.core)
				}
				c.mu.Unlock()
				return s
			}
			c.replace(s, t.Phase)
		}
		if c.dialing {
			wake := c.wake
			c.mu.Unlock()
			select {
			case <-wake:
			case <-c.tr.load.Ctx.Done():
				return nil
			}
			continue
		}
		c.dialing = true
		at := c.dialAt
		c.mu.Unlock()
		if !l.waitUntil(at) {
			c.dialed(nil)
			return nil
		}
		start := time.Now()
		s, err := c.handshake(c.tr.load.Ctx)
		if err != nil {
			c.mu.Lock()
			c.dialAt = time.Now().Add(c.core.H3DialFailed(t, target, err))
			c.mu.Unlock()
			c.dialed(nil)
			return nil
		}
		c.worker.AddConnect(t.Phase, time.Since(start))
		c.dialed(s)
	}
}

// dialed ends a handshake: s, if not nil, is the connection streams open
// on now; the lanes waiting for it go on.
func (c *conn) dialed(s *session) {
	c.mu.Lock()
	if s != nil {
		c.cur = s
		c.core.Attached()
	}
	c.dialing = false
	close(c.wake)
	c.wake = make(chan struct{})
	c.mu.Unlock()
}

// replace retires s, which ended or is draining after a GOAWAY, as the
// connection streams open on (c.mu held): a reconnect unless streams were
// lost with it (the first lane to see the end decides), after a backoff
// when it served nothing. It closes once no lane uses it (release).
func (c *conn) replace(s *session, phase int) {
	if c.cur != s {
		return
	}
	c.cur = nil
	s.retired.Store(true)
	c.core.Detached()
	if c.tr.load.Stopped() { // closed by the stop: nothing to count
		return
	}
	if wait := c.core.H3Replaced(phase, int(s.served.Load()), !s.streamsLost.Load()); wait > 0 {
		c.dialAt = time.Now().Add(wait)
	}
	if s.open.Load() == 0 {
		s.close()
	}
}

// lost retires s after a lane saw it end.
func (c *conn) lost(s *session, phase int) {
	c.mu.Lock()
	c.replace(s, phase)
	c.mu.Unlock()
}

// release notes that a lane no longer uses s; the last lane of a retired
// connection closes it. replace stores retired before it reads open, and
// release the other way round, so one of the two closes it.
func (c *conn) release(s *session) {
	if s.open.Add(-1) == 0 && s.retired.Load() {
		s.close()
	}
}

// finish hands the connection's own counts to its worker.
func (c *conn) finish() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.core.Detached()
	c.own.Flush(c.worker) // connect errors only: no bytes of its own
}

// close closes s with H3_NO_ERROR, once, and forgets it.
func (s *session) close() { s.fail(h3.NoError, "") }

// closed forgets s, closed, and adds what it counted to the run's.
func (s *session) closed() {
	s.tr.unregister(s)
	st := s.qc.ConnectionStats()
	s.tr.load.AddQUIC(stats.QUIC{PacketsSent: int64(st.PacketsSent), PacketsReceived: int64(st.PacketsReceived),
		PacketsLost: int64(st.PacketsLost), BytesSent: int64(st.BytesSent), BytesReceived: int64(st.BytesReceived)})
}

// dialError names a failed handshake's cause for the connect error: a
// server without h3, a TLS failure (a certificate's is left as it is, for
// the hint that follows it), no answer at all.
func dialError(err error) error {
	var te *quic.TransportError
	var cve *tls.CertificateVerificationError
	switch {
	case errors.As(err, &te) && te.ErrorCode == noApplicationProtocol:
		return &engine.NoHTTP3Error{Cause: "the server offers no h3"}
	case errors.As(err, &cve):
		return cve // as over TCP, without QUIC's "CRYPTO_ERROR 0x12a (local)" before it
	case errors.As(err, &te) && te.ErrorCode.IsCryptoError():
		return &engine.HandshakeError{Cause: "TLS handshake failed", Err: err}
	case errors.As(err, new(*quic.IdleTimeoutError)), errors.As(err, new(*quic.HandshakeTimeoutError)):
		return &engine.HandshakeError{Cause: "timed out", Err: errNoAnswer}
	}
	return err
}

// noApplicationProtocol is TLS's no_application_protocol alert as QUIC
// carries it: the server chose none of the ALPN offered.
const noApplicationProtocol = quic.TransportErrorCode(0x100 + 120)

// errNoAnswer is a handshake that heard nothing back.
var errNoAnswer = errors.New("no answer to the QUIC handshake within --timeout (is a server listening on UDP there?)")
