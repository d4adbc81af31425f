package h2fixture

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// testDeadline bounds every exchange of the test client.
const testDeadline = 5 * time.Second

// bigWindow is the window the test client advertises unless told otherwise.
const bigWindow = 1 << 30

// client is a minimal HTTP/2 client on a Framer: it writes exactly the
// frames a test asks for and records what the server sends, frame by frame.
type client struct {
	t   *testing.T
	nc  net.Conn
	bw  *bufio.Writer
	fr  *http2.Framer
	dec *hpack.Decoder
	enc *hpack.Encoder
	buf bytes.Buffer
	id  uint32 // last stream id opened

	frag    []byte // header block being assembled
	fragID  uint32
	fragEnd bool // END_STREAM of the HEADERS being assembled
	got     record
}

// record is what the server sent.
type record struct {
	settings  []http2.Setting
	settled   bool // the server's SETTINGS arrived
	acked     bool // the server acked the client's SETTINGS
	pong      bool
	status    map[uint32]string
	length    map[uint32]string // content-length
	body      map[uint32]int
	ended     map[uint32]bool // END_STREAM seen
	reset     map[uint32]http2.ErrCode
	goAway    *http2.GoAwayFrame
	headers   int // HEADERS frames
	conts     int // CONTINUATION frames
	datas     []int
	updates   map[uint32]int64 // WINDOW_UPDATE increments by stream
	decodeErr error
}

// dial connects to s with the client's window, sends the preface and
// SETTINGS (and a large connection WINDOW_UPDATE).
func dial(t *testing.T, addr string, tc *tls.Config, window uint32) *client {
	t.Helper()
	nc, err := net.DialTimeout("tcp", addr, testDeadline)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = nc.Close() })
	if tc != nil {
		tlc := tls.Client(nc, tc)
		if err := tlc.Handshake(); err != nil {
			t.Fatal(err)
		}
		if p := tlc.ConnectionState().NegotiatedProtocol; p != "h2" {
			t.Fatalf("ALPN = %q, want h2", p)
		}
		nc = tlc
	}
	_ = nc.SetDeadline(time.Now().Add(testDeadline))
	c := &client{t: t, nc: nc, bw: bufio.NewWriter(nc), dec: hpack.NewDecoder(4096, nil)}
	c.enc = hpack.NewEncoder(&c.buf)
	c.fr = http2.NewFramer(c.bw, nc)
	c.fr.SetMaxReadFrameSize(defaultMaxFrame) // what the client's SETTINGS allow
	c.got = record{status: map[uint32]string{}, length: map[uint32]string{}, body: map[uint32]int{}, ended: map[uint32]bool{},
		reset: map[uint32]http2.ErrCode{}, updates: map[uint32]int64{}}
	_, _ = c.bw.WriteString(http2.ClientPreface)
	c.must(c.fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: window}))
	c.must(c.fr.WriteWindowUpdate(0, bigWindow))
	c.flush()
	return c
}

// must fails the test on a write error.
func (c *client) must(err error) {
	c.t.Helper()
	if err != nil {
		c.t.Fatal(err)
	}
}

// flush sends what is buffered.
func (c *client) flush() { c.must(c.bw.Flush()) }

// open sends a request's HEADERS for path; with a body, END_STREAM waits
// for the body's DATA.
func (c *client) open(path string, withBody bool) uint32 {
	c.id += 2
	if c.id == 2 {
		c.id = 1
	}
	c.buf.Reset()
	for _, f := range [][2]string{{":method", "POST"}, {":scheme", "http"}, {":authority", "fixture"}, {":path", path}} {
		_ = c.enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	c.must(c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: c.id, BlockFragment: c.buf.Bytes(), EndStream: !withBody, EndHeaders: true}))
	c.flush()
	return c.id
}

// get opens a body-less request for "/".
func (c *client) get() uint32 { return c.open("/", false) }

// read reads one frame and records it; it returns the read error.
func (c *client) read() error {
	f, err := c.fr.ReadFrame()
	if err != nil {
		return err
	}
	switch f := f.(type) {
	case *http2.SettingsFrame:
		c.onSettings(f)
	case *http2.PingFrame:
		c.got.pong = c.got.pong || f.IsAck()
	case *http2.HeadersFrame:
		c.got.headers++
		c.frag, c.fragID, c.fragEnd = append([]byte(nil), f.HeaderBlockFragment()...), f.StreamID, f.StreamEnded()
		if f.HeadersEnded() {
			c.decode()
		}
	case *http2.ContinuationFrame:
		c.got.conts++
		c.frag = append(c.frag, f.HeaderBlockFragment()...)
		if f.HeadersEnded() {
			c.decode()
		}
	case *http2.DataFrame:
		c.got.datas = append(c.got.datas, len(f.Data()))
		c.got.body[f.StreamID] += len(f.Data())
		c.got.ended[f.StreamID] = c.got.ended[f.StreamID] || f.StreamEnded()
	case *http2.RSTStreamFrame:
		c.got.reset[f.StreamID] = f.ErrCode
	case *http2.GoAwayFrame:
		c.got.goAway = f
	case *http2.WindowUpdateFrame:
		c.got.updates[f.StreamID] += int64(f.Increment)
	}
	return nil
}

// onSettings records the server's SETTINGS and acks them.
func (c *client) onSettings(f *http2.SettingsFrame) {
	if f.IsAck() {
		c.got.acked = true
		return
	}
	c.got.settled = true
	_ = f.ForeachSetting(func(s http2.Setting) error {
		c.got.settings = append(c.got.settings, s)
		return nil
	})
	c.must(c.fr.WriteSettingsAck())
	c.flush()
}

// decode decodes a complete header block and records its :status and
// content-length.
func (c *client) decode() {
	fields, err := c.dec.DecodeFull(c.frag)
	if err != nil {
		c.got.decodeErr = err
		return
	}
	for _, f := range fields {
		switch f.Name {
		case ":status":
			c.got.status[c.fragID] = f.Value
		case "content-length":
			c.got.length[c.fragID] = f.Value
		}
	}
	c.got.ended[c.fragID] = c.got.ended[c.fragID] || c.fragEnd
}

// until reads frames until done reports true; it fails the test if the
// connection ends first.
func (c *client) until(done func(*record) bool) {
	c.t.Helper()
	for !done(&c.got) {
		if err := c.read(); err != nil {
			c.t.Fatalf("read before the condition held: %v", err)
		}
	}
}

// drain reads frames until the connection ends and returns why.
func (c *client) drain() error {
	for {
		if err := c.read(); err != nil {
			return err
		}
	}
}

// ended reports whether the streams ids all saw END_STREAM.
func ended(ids ...uint32) func(*record) bool {
	return func(r *record) bool {
		for _, id := range ids {
			if !r.ended[id] {
				return false
			}
		}
		return true
	}
}

// isEOF reports whether err is a clean end of the connection.
func isEOF(err error) bool { return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) }
