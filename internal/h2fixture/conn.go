package h2fixture

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// Protocol defaults (RFC 9113 §6.5.2).
const (
	defaultWindow   = 65535
	defaultMaxFrame = 16384
)

// ending is how a connection's loop ends after the current frame.
type ending int

const (
	endNone   ending = iota
	endLinger        // clean close: FIN, then drain
	endReset         // TCP RST
)

// stream is a stream the server has not finished with: its request is
// still arriving, or its response is stalled or waiting for window.
type stream struct {
	id      uint32
	recvWin int64  // what the client may still send on it
	sendWin int64  // what the server may still send on it
	body    int64  // request body bytes received
	out     []byte // response body not yet sent
	stall   bool   // out is all StallMidBody sends: no END_STREAM follows
}

// conn is one connection's state; only its own goroutine touches it.
type conn struct {
	s   *Server
	b   *Behaviour
	nc  net.Conn
	tcp *net.TCPConn
	br  *bufio.Reader
	bw  *bufio.Writer
	fr  *http2.Framer

	streams map[uint32]*stream // open streams by id
	pending []*stream          // answered streams with body left, in order
	lastID  uint32             // highest stream id the client opened
	opened  int                // streams accepted on this connection
	goAway  uint32             // last-stream-id of the GOAWAY sent, or 0
	decided bool               // a first response was decided
	faulted bool               // a fault was sent: answer nothing more
	end     ending

	sendWin  int64 // connection send window
	peerInit int64 // client's SETTINGS_INITIAL_WINDOW_SIZE
	maxFrame int   // client's SETTINGS_MAX_FRAME_SIZE
	recvInit int64 // initial stream window the client has acked
	recvConn int64 // connection receive window
}

// newConn prepares the state of a connection.
func newConn(s *Server, nc net.Conn, tcp *net.TCPConn) *conn {
	c := &conn{
		s: s, b: &s.b, nc: nc, tcp: tcp,
		br: bufio.NewReader(nc), bw: bufio.NewWriter(nc),
		streams: make(map[uint32]*stream),
		sendWin: defaultWindow, peerInit: defaultWindow, maxFrame: defaultMaxFrame,
		recvInit: defaultWindow, recvConn: defaultWindow,
	}
	c.fr = http2.NewFramer(c.bw, c.br)
	c.fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	return c
}

// run serves the connection until it ends. Writes are buffered and go out
// when no frame read so far is left to handle, or before the connection
// ends.
func (c *conn) run() {
	if !c.readPreface() || c.hostile() {
		return
	}
	c.writeSettings()
	for {
		if c.br.Buffered() == 0 && c.bw.Flush() != nil {
			return
		}
		f, err := c.fr.ReadFrame()
		if err != nil {
			if c.readFailed(err) {
				_ = c.bw.Flush()
				return
			}
			continue
		}
		c.handle(f)
		c.sendData()
		if c.finish() {
			return
		}
	}
}

// finish ends the connection if its schedule says so and reports whether
// it did: on a reset, after CloseAfter, or once every stream up to the
// GOAWAY's last-stream-id is answered.
func (c *conn) finish() bool {
	linger := c.end == endLinger || c.goAway != 0 && c.answeredUpTo(c.goAway)
	if c.end == endNone && !linger {
		return false
	}
	_ = c.bw.Flush()
	if c.end == endReset {
		resetClose(c.tcp)
	} else {
		lingerClose(c.nc, c.tcp)
	}
	return true
}

// readPreface reads the client connection preface.
func (c *conn) readPreface() bool {
	buf := make([]byte, len(http2.ClientPreface))
	if _, err := io.ReadFull(c.br, buf); err != nil {
		return false
	}
	if !bytes.Equal(buf, []byte(http2.ClientPreface)) {
		c.s.violations.Add(1)
		return false
	}
	return true
}

// writeSettings sends the server's SETTINGS.
func (c *conn) writeSettings() {
	var set []http2.Setting
	if n, ok := c.b.streamLimit(); ok {
		set = append(set, http2.Setting{ID: http2.SettingMaxConcurrentStreams, Val: n})
	}
	if w := c.b.recvWindow(); w != defaultWindow {
		set = append(set, http2.Setting{ID: http2.SettingInitialWindowSize, Val: uint32(w)})
	}
	_ = c.fr.WriteSettings(set...)
}

// readFailed handles a read error and reports whether the connection is
// over. A stream error (a frame the Framer rejects on one stream) is the
// client's violation and resets that stream; anything else ends the loop.
func (c *conn) readFailed(err error) bool {
	var se http2.StreamError
	if errors.As(err, &se) {
		c.s.violations.Add(1)
		_ = c.fr.WriteRSTStream(se.StreamID, se.Code)
		c.forget(se.StreamID)
		return false
	}
	var ce http2.ConnectionError
	if errors.As(err, &ce) {
		c.s.violations.Add(1)
	}
	return true
}

// handle dispatches one frame from the client.
func (c *conn) handle(f http2.Frame) {
	switch f := f.(type) {
	case *http2.MetaHeadersFrame:
		c.onHeaders(f)
	case *http2.DataFrame:
		c.onData(f)
	case *http2.SettingsFrame:
		c.onSettings(f)
	case *http2.PingFrame:
		if !f.IsAck() {
			_ = c.fr.WritePing(true, f.Data)
		}
	case *http2.WindowUpdateFrame:
		c.onWindowUpdate(f)
	case *http2.RSTStreamFrame:
		c.forget(f.StreamID)
	}
}

// onSettings acks the client's SETTINGS and applies the window and frame
// size; the ack of the server's own SETTINGS moves the receive windows to
// the advertised initial size.
func (c *conn) onSettings(f *http2.SettingsFrame) {
	if f.IsAck() {
		delta := c.b.recvWindow() - c.recvInit
		for _, st := range c.streams {
			st.recvWin += delta
		}
		c.recvInit += delta
		return
	}
	_ = f.ForeachSetting(func(set http2.Setting) error {
		switch set.ID {
		case http2.SettingInitialWindowSize:
			delta := int64(set.Val) - c.peerInit
			for _, st := range c.streams {
				st.sendWin += delta
			}
			c.peerInit = int64(set.Val)
		case http2.SettingMaxFrameSize:
			c.maxFrame = int(set.Val)
		}
		return nil
	})
	_ = c.fr.WriteSettingsAck()
}

// onWindowUpdate widens a send window.
func (c *conn) onWindowUpdate(f *http2.WindowUpdateFrame) {
	if f.StreamID == 0 {
		c.sendWin += int64(f.Increment)
	} else if st := c.streams[f.StreamID]; st != nil {
		st.sendWin += int64(f.Increment)
	}
}

// forget drops a stream the client reset (or the server gave up on).
func (c *conn) forget(id uint32) {
	if _, ok := c.streams[id]; !ok {
		return
	}
	delete(c.streams, id)
	for i, st := range c.pending {
		if st.id == id {
			c.pending = append(c.pending[:i], c.pending[i+1:]...)
			break
		}
	}
}

// answeredUpTo reports whether no stream at or below id is still open.
func (c *conn) answeredUpTo(id uint32) bool {
	for sid := range c.streams {
		if sid <= id {
			return false
		}
	}
	return true
}
