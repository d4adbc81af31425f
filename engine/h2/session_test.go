package h2

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// server writes frames as a server would, for Feed.
type server struct {
	buf bytes.Buffer
	fr  *http2.Framer
}

func newServer() *server {
	s := &server{}
	s.fr = http2.NewFramer(&s.buf, nil)
	return s
}

// block encodes a header block.
func block(fields ...string) []byte {
	var b bytes.Buffer
	enc := hpack.NewEncoder(&b)
	for i := 0; i < len(fields); i += 2 {
		enc.WriteField(hpack.HeaderField{Name: fields[i], Value: fields[i+1]})
	}
	return b.Bytes()
}

// frames parses what the client wrote (after the preface) into frames.
func frames(t *testing.T, out []byte) []http2.Frame {
	t.Helper()
	out = bytes.TrimPrefix(out, []byte(Preface))
	fr := http2.NewFramer(nil, bytes.NewReader(out))
	var got []http2.Frame
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return got
		}
		got = append(got, f)
	}
}

func TestRequestBlockIsTheSameEveryTime(t *testing.T) {
	headers := []Header{{"User-Agent", "pummel"}, {"Connection", "keep-alive"}, {"TE", "gzip"}, {"X-Id", "7"}}
	a := NewRequest("POST", "http", "example.com", "/a?b=1", headers, []byte("body"))
	b := NewRequest("POST", "http", "example.com", "/a?b=1", headers, []byte("body"))
	if !bytes.Equal(a.block, b.block) || a.block[0]&0xe0 == 0x20 {
		t.Fatalf("blocks differ or start with a table size update: %x, %x", a.block, b.block)
	}
	fields, err := hpack.NewDecoder(0, nil).DecodeFull(a.block)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fields {
		got = append(got, f.Name+"="+f.Value)
	}
	want := ":method=POST :scheme=http :authority=example.com :path=/a?b=1 user-agent=pummel x-id=7 content-length=4"
	if strings.Join(got, " ") != want {
		t.Errorf("fields %q, want %q", strings.Join(got, " "), want)
	}
}

func TestSessionStreams(t *testing.T) {
	s := NewSession(Options{Slots: 4, KeepBody: 100})
	s.Out = s.Out[:0]
	if s.CanOpen() {
		t.Fatal("a stream may open before the server's SETTINGS")
	}
	srv := newServer()
	srv.fr.WriteSettings(http2.Setting{ID: http2.SettingMaxConcurrentStreams, Val: 2}, http2.Setting{ID: http2.SettingInitialWindowSize, Val: 10})
	if _, err := s.Feed(srv.buf.Bytes()); err != nil || !s.Ready() || s.Limit() != 2 {
		t.Fatalf("after SETTINGS: %v, ready %v, limit %d", err, s.Ready(), s.Limit())
	}
	if f := frames(t, s.Out); len(f) != 1 || !f[0].(*http2.SettingsFrame).IsAck() {
		t.Fatalf("wrote %v, want a SETTINGS ack", f)
	}
	s.Out = s.Out[:0]
	req := NewRequest("POST", "http", "h", "/", nil, []byte(strings.Repeat("x", 25)))
	s.Start(0, req)
	s.Start(1, NewRequest("GET", "http", "h", "/", nil, nil))
	if s.CanOpen() {
		t.Error("a third stream may open past the server's limit of 2")
	}
	f := frames(t, s.Out)
	if len(f) != 3 || f[1].(*http2.DataFrame).Length != 10 || f[0].Header().StreamID != 1 || f[2].Header().StreamID != 3 {
		t.Fatalf("wrote %v: want HEADERS 1, 10 bytes of DATA (the window), HEADERS 3", f)
	}
	s.Out = s.Out[:0]
	srv.buf.Reset()
	srv.fr.WriteWindowUpdate(1, 100)
	// Stream 1 answered with padding and a header block over CONTINUATION.
	b := block(":status", "201", "x-a", "1")
	srv.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: b[:2], PadLength: 3})
	srv.fr.WriteContinuation(1, true, b[2:])
	srv.fr.WriteData(1, false, []byte("hel"))
	srv.fr.WriteDataPadded(1, true, []byte("lo"), []byte{0, 0})
	srv.fr.WriteRSTStream(3, http2.ErrCodeRefusedStream)
	srv.fr.WritePing(false, [8]byte{1})
	if _, err := s.Feed(srv.buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if len(s.Events) != 2 || s.Events[0].Slot != 0 || s.Events[0].Kind != Response || s.Events[0].Status != 201 ||
		string(s.Events[0].Body) != "hello" || s.Events[1].Kind != Reset || s.Events[1].Code != http2.ErrCodeRefusedStream {
		t.Fatalf("events %+v", s.Events)
	}
	f = frames(t, s.Out)
	if len(f) != 2 || f[0].(*http2.DataFrame).Length != 15 || !f[1].(*http2.PingFrame).IsAck() {
		t.Errorf("wrote %v: want the body's last 15 bytes once the window opened, and the PING ack", f)
	}
	if s.Open() != 0 || !s.CanOpen() {
		t.Errorf("%d streams open after both ended", s.Open())
	}
}

func TestSessionConnectionErrors(t *testing.T) {
	tests := []struct {
		name  string
		write func(fr *http2.Framer)
		cause string
	}{
		{"DATA before the response header", func(fr *http2.Framer) { fr.WriteData(1, true, []byte("x")) }, "DATA on stream 1 before its response header"},
		{"a stream never opened", func(fr *http2.Framer) {
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 5, BlockFragment: block(":status", "200"), EndHeaders: true})
		}, "which the client never opened"},
		{"a server-initiated stream", func(fr *http2.Framer) {
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 2, BlockFragment: block(":status", "200"), EndHeaders: true})
		}, "never opened"},
		{"a bad header block", func(fr *http2.Framer) {
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: []byte{0xff, 0xff, 0xff}, EndHeaders: true})
		}, "a bad header block"},
		{"no :status", func(fr *http2.Framer) {
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block("x", "y"), EndHeaders: true, EndStream: true})
		}, "without :status"},
		{"a window overflow", func(fr *http2.Framer) { fr.WriteWindowUpdate(0, 1<<31-1) }, "connection window update"},
		{"a frame inside a header block", func(fr *http2.Framer) {
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block(":status", "200")})
			fr.WritePing(false, [8]byte{})
		}, "a PING frame inside a header block"},
		{"a push", func(fr *http2.Framer) {
			fr.WritePushPromise(http2.PushPromiseParam{StreamID: 1, PromiseID: 2, BlockFragment: block(":path", "/"), EndHeaders: true})
		}, "PUSH_PROMISE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewSession(Options{Slots: 1})
			srv := newServer()
			srv.fr.WriteSettings()
			s.Feed(srv.buf.Bytes())
			s.Start(0, NewRequest("GET", "http", "h", "/", nil, nil))
			s.Out = s.Out[:0]
			srv.buf.Reset()
			tt.write(srv.fr)
			_, err := s.Feed(srv.buf.Bytes())
			ce, ok := err.(*ConnError)
			if !ok || !strings.Contains(ce.Cause, tt.cause) {
				t.Fatalf("err %v, want a connection error naming %q", err, tt.cause)
			}
			if f := frames(t, s.Out); len(f) == 0 || f[len(f)-1].Header().Type != http2.FrameGoAway {
				t.Errorf("wrote %v, want a GOAWAY last", f)
			}
		})
	}
}

func TestSessionGoAway(t *testing.T) {
	s := NewSession(Options{Slots: 3})
	srv := newServer()
	srv.fr.WriteSettings()
	s.Feed(srv.buf.Bytes())
	for slot := range 3 {
		s.Start(slot, NewRequest("GET", "http", "h", "/", nil, nil)) // streams 1, 3, 5
	}
	srv.buf.Reset()
	srv.fr.WriteGoAway(3, http2.ErrCodeNo, nil)
	srv.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 3, BlockFragment: block(":status", "200"), EndHeaders: true, EndStream: true})
	if _, err := s.Feed(srv.buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if len(s.Events) != 2 || s.Events[0].Kind != Unprocessed || s.Events[0].Slot != 2 || s.Events[1].Kind != Response || s.Events[1].Slot != 1 {
		t.Fatalf("events %+v: want stream 5 unprocessed, stream 3 answered", s.Events)
	}
	if !s.Draining() || s.CanOpen() || s.Open() != 1 {
		t.Errorf("draining %v, can open %v, %d open; want stream 1 still open, none new", s.Draining(), s.CanOpen(), s.Open())
	}
}

// TestHeaderBlockOfAStreamThatEnded: a stream cancelled while its header
// block was being read leaves its slot to the next stream, which the rest
// of the old block must not touch.
func TestHeaderBlockOfAStreamThatEnded(t *testing.T) {
	s := NewSession(Options{Slots: 1})
	srv := newServer()
	srv.fr.WriteSettings()
	s.Feed(srv.buf.Bytes())
	s.Start(0, NewRequest("GET", "http", "h", "/", nil, nil)) // stream 1
	srv.buf.Reset()
	b := block(":status", "500")
	srv.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: b[:1], EndStream: true})
	s.Feed(srv.buf.Bytes())
	s.Cancel(0)
	s.Start(0, NewRequest("GET", "http", "h", "/", nil, nil)) // stream 3, in the same slot
	srv.buf.Reset()
	srv.fr.WriteContinuation(1, true, b[1:])
	srv.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 3, BlockFragment: block(":status", "204"), EndHeaders: true, EndStream: true})
	if _, err := s.Feed(srv.buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if len(s.Events) != 1 || s.Events[0].Status != 204 {
		t.Errorf("events %+v, want stream 3's 204 only", s.Events)
	}
}

func TestAnHTTP1ServerIsNamed(t *testing.T) {
	s := NewSession(Options{Slots: 1})
	_, err := s.Feed([]byte("HTTP/1.1 400 Bad Request\r\n\r\n"))
	if err == nil || !strings.Contains(err.Error(), "answered in HTTP/1.1") {
		t.Errorf("err %v, want the server named as HTTP/1.1", err)
	}
}

// TestServersTableSizeIsNotTheClients: the server's
// SETTINGS_HEADER_TABLE_SIZE bounds its own decoder's table; the client's
// decoder keeps the 4,096 bytes it advertised, and a block that grows its
// table past them is a compression error.
func TestServersTableSizeIsNotTheClients(t *testing.T) {
	s := NewSession(Options{Slots: 1})
	srv := newServer()
	srv.fr.WriteSettings(http2.Setting{ID: http2.SettingHeaderTableSize, Val: 65536})
	s.Feed(srv.buf.Bytes())
	s.Start(0, NewRequest("GET", "http", "h", "/", nil, nil))
	srv.buf.Reset()
	b := append([]byte{0x3f, 0xe1, 0xff, 0x03}, block(":status", "200")...) // a table size update to 65,536
	srv.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: b, EndHeaders: true, EndStream: true})
	if _, err := s.Feed(srv.buf.Bytes()); err == nil || !strings.Contains(err.Error(), "bad header block") {
		t.Errorf("err %v, want the size update refused", err)
	}
}
