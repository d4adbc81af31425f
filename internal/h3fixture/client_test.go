package h3fixture

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"strconv"
	"testing"
	"time"

	"github.com/quic-go/qpack"
	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/quicvarint"
)

// testDeadline bounds every exchange of the test client.
const testDeadline = 5 * time.Second

// client is a minimal HTTP/3 client on quic-go's streams: it sends exactly
// the frames a test asks for and reports the frames it reads.
type client struct {
	t      testing.TB
	qc     *quic.Conn
	goAway chan quic.StreamID // the ids of the server's GOAWAY frames
	done   chan struct{}      // closed when readServerStreams returns
}

// dial connects to s and opens the client's control stream.
func dial(t testing.TB, s *Server) *client {
	t.Helper()
	qc, err := dialQUIC(s.Addr(), s.ClientTLS(), nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	c := &client{t: t, qc: qc, goAway: make(chan quic.StreamID, 4), done: make(chan struct{})}
	t.Cleanup(func() {
		_ = qc.CloseWithError(CodeNoError, "")
		<-c.done
	})
	go c.readServerStreams()
	c.uni(appendFrame([]byte{streamControl}, frameSettings, nil))
	return c
}

// dialQUIC dials addr with a bounded handshake.
func dialQUIC(addr string, tc *tls.Config, qcfg *quic.Config) (*quic.Conn, error) {
	if qcfg == nil {
		qcfg = &quic.Config{HandshakeIdleTimeout: testDeadline}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*testDeadline)
	defer cancel()
	return quic.DialAddr(ctx, addr, tc, qcfg)
}

// uni opens a unidirectional stream and writes b on it, leaving it open.
func (c *client) uni(b []byte) {
	c.t.Helper()
	str, err := c.qc.OpenUniStream()
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := str.Write(b); err != nil {
		c.t.Fatal(err)
	}
}

// readServerStreams reads the server's control stream, which must start
// with SETTINGS, and reports each GOAWAY's id, until the connection ends.
func (c *client) readServerStreams() {
	defer close(c.done)
	str, err := c.qc.AcceptUniStream(context.Background())
	if err != nil {
		return
	}
	br := bufio.NewReader(str)
	typ, err := quicvarint.Read(br)
	switch {
	case errors.Is(err, io.EOF), errors.As(err, new(*quic.StreamError)):
		c.t.Errorf("server's first unidirectional stream ended before its type: %v", err)
		return
	case err != nil: // the connection ended before the type came: the test's own close, or the server's
		return
	}
	if typ != streamControl {
		c.t.Errorf("server's first unidirectional stream: type %d, want a control stream", typ)
		return
	}
	for first := true; ; first = false {
		typ, length, err := readFrameHeader(br)
		if err != nil {
			return
		}
		payload, err := readPayload(br, length)
		if err != nil {
			return
		}
		if first && typ != frameSettings {
			c.t.Errorf("server's control stream starts with frame type %#x, want SETTINGS", typ)
		}
		if typ == frameGoAway {
			id, _, _ := quicvarint.Parse(payload)
			c.goAway <- quic.StreamID(id)
		}
	}
}

// headers returns a request's HEADERS frame: the header block is encoded
// with a qpack.Encoder that is closed after the block, as a client that
// reuses it must.
func headers(method, path string) []byte {
	var block bytes.Buffer
	enc := qpack.NewEncoder(&block)
	for _, f := range [][2]string{{":method", method}, {":scheme", "https"}, {":authority", "localhost"}, {":path", path}} {
		_ = enc.WriteField(qpack.HeaderField{Name: f[0], Value: f[1]})
	}
	_ = enc.Close()
	return appendFrame(nil, frameHeaders, block.Bytes())
}

// open opens a request stream and sends raw, then its FIN. A failed write
// (the server may reset the stream before the FIN is queued) is left to
// show on the read side.
func (c *client) open(raw []byte) (*quic.Stream, error) {
	ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
	defer cancel()
	str, err := c.qc.OpenStreamSync(ctx)
	if err != nil {
		return nil, err
	}
	_ = str.SetDeadline(time.Now().Add(testDeadline))
	if _, err := str.Write(raw); err == nil {
		_ = str.Close()
	}
	return str, nil
}

// request opens a request for path: a GET, or a POST with body bytes of
// body.
func (c *client) request(path string, body int) (*quic.Stream, error) {
	if body == 0 {
		return c.open(headers("GET", path))
	}
	raw := headers("POST", path)
	return c.open(appendFrame(raw, frameData, bytes.Repeat([]byte{'b'}, body)))
}

// get opens a GET for path and reads its response; it fails the test on
// an error.
func (c *client) get(path string) response {
	c.t.Helper()
	str, err := c.request(path, 0)
	if err != nil {
		c.t.Fatalf("GET %s: %v", path, err)
	}
	r, err := readResponse(str)
	if err != nil {
		c.t.Fatalf("GET %s: %v", path, err)
	}
	return r
}

// response is what a test client read on a request stream up to its FIN.
type response struct {
	frames    []uint64 // frame types in order
	status    string
	length    string // content-length
	body      int
	decodeErr error // the first header block that did not decode
}

// readResponse reads frames up to the stream's FIN; it returns the error
// that ended the stream instead, if any.
func readResponse(str *quic.Stream) (response, error) {
	var r response
	br := bufio.NewReader(str)
	for {
		typ, length, err := readFrameHeader(br)
		if err == io.EOF {
			return r, nil
		}
		if err != nil {
			return r, err
		}
		r.frames = append(r.frames, typ)
		payload, err := readPayloadAny(br, length)
		if err != nil {
			return r, err
		}
		switch typ {
		case frameData:
			r.body += len(payload)
		case frameHeaders:
			r.decodeHeaders(payload)
		}
	}
}

// readPayloadAny reads a payload of any size.
func readPayloadAny(br *bufio.Reader, length uint64) ([]byte, error) {
	p := make([]byte, length)
	_, err := io.ReadFull(br, p)
	return p, noEOF(err)
}

// decodeHeaders records :status and content-length, or the decoding error.
func (r *response) decodeHeaders(block []byte) {
	fields, err := decodeFields(block)
	if err != nil {
		r.decodeErr = err
		return
	}
	for _, f := range fields {
		switch f.Name {
		case ":status":
			r.status = f.Value
		case "content-length":
			r.length = f.Value
		}
	}
}

// ok reports whether r is a complete, honest response of status and body
// bytes.
func (r response) ok(status, body int) bool {
	return r.status == strconv.Itoa(status) && r.length == strconv.Itoa(body) && r.body == body && r.decodeErr == nil
}

// streamCode returns the code of the stream error err, or -1.
func streamCode(err error) int64 {
	var se *quic.StreamError
	if errors.As(err, &se) && se.Remote {
		return int64(se.ErrorCode)
	}
	return -1
}

// closeCode returns the code of the peer's application close err, or -1.
func closeCode(err error) int64 {
	var ae *quic.ApplicationError
	if errors.As(err, &ae) && ae.Remote {
		return int64(ae.ErrorCode)
	}
	return -1
}

// want fails the test if got != want.
func want[T comparable](t testing.TB, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// eventually waits, up to testDeadline, until cond holds, and reports
// whether it did.
func eventually(cond func() bool) bool {
	for end := time.Now().Add(testDeadline); !cond(); {
		if time.Now().After(end) {
			return false
		}
		time.Sleep(2 * time.Millisecond)
	}
	return true
}
