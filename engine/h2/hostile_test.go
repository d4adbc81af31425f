package h2

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"golang.org/x/net/http2"
)

// ready returns a session past the server's SETTINGS, with Out written.
func ready(t *testing.T, o Options) *Session {
	t.Helper()
	s := NewSession(o)
	srv := newServer()
	srv.fr.WriteSettings()
	if _, err := s.Feed(srv.buf.Bytes()); err != nil || !s.Ready() {
		t.Fatalf("handshake: %v", err)
	}
	s.Sent()
	return s
}

// TestControlFramesOwedAreBounded: a server that floods PING or SETTINGS
// and reads nothing ends the connection once MaxOwed acknowledgements
// wait unwritten; one whose acknowledgements are written (Sent) never does.
func TestControlFramesOwedAreBounded(t *testing.T) {
	tests := []struct {
		name  string
		write func(fr *http2.Framer)
		sent  bool // the transport writes Out after each frame
		fails bool
	}{
		{"PING flood, nothing written", func(fr *http2.Framer) { fr.WritePing(false, [8]byte{1}) }, false, true},
		{"SETTINGS flood, nothing written", func(fr *http2.Framer) { fr.WriteSettings() }, false, true},
		{"PING flood, each ack written", func(fr *http2.Framer) { fr.WritePing(false, [8]byte{1}) }, true, false},
		{"PING acks, nothing owed", func(fr *http2.Framer) { fr.WritePing(true, [8]byte{1}) }, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ready(t, Options{Slots: 1})
			var err error
			for range MaxOwed + 1 {
				srv := newServer()
				tt.write(srv.fr)
				if _, err = s.Feed(srv.buf.Bytes()); err != nil {
					break
				}
				if tt.sent {
					s.Sent()
				}
			}
			var ce *ConnError
			if tt.fails != (err != nil) || err != nil && (!errors.As(err, &ce) || ce.Code != http2.ErrCodeEnhanceYourCalm) {
				t.Fatalf("after %d frames: %v, want a failure %v", MaxOwed+1, err, tt.fails)
			}
			if len(s.Out) > (MaxOwed+1)*(9+8)+64 {
				t.Errorf("Out holds %d bytes", len(s.Out))
			}
		})
	}
}

// TestHeaderBlockIsBounded: a header block that never ends (CONTINUATION
// after CONTINUATION) is a connection error once it passes
// MaxHeaderBlock, not a block that grows.
func TestHeaderBlockIsBounded(t *testing.T) {
	s := ready(t, Options{Slots: 1})
	s.Start(0, NewRequest("GET", "http", "a", "/", nil, nil))
	srv := newServer()
	srv.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block(":status", "200")})
	part := block(strings.Repeat("x", 100), strings.Repeat("y", 4000))
	for range MaxHeaderBlock/len(part) + 1 {
		srv.fr.WriteContinuation(1, false, part)
	}
	_, err := s.Feed(srv.buf.Bytes())
	if err == nil || !strings.Contains(err.Error(), "header block over 256 KiB") {
		t.Fatalf("Feed: %v, want a header block over its bound", err)
	}
}

// TestContentLengthMustMatch: a response whose DATA disagree with its
// content-length is Malformed (RFC 9113 §8.1.1), too few or too many;
// HEAD, 204 and 304 responses carry no content whatever their length says.
func TestContentLengthMustMatch(t *testing.T) {
	tests := []struct {
		name   string
		method string
		fields []string
		data   []string // DATA frames; the last ends the stream
		want   EventKind
		cause  string
	}{
		{"length agrees", "GET", []string{":status", "200", "content-length", "5"}, []string{"ab", "cde"}, Response, ""},
		{"no length", "GET", []string{":status", "200"}, []string{"abc"}, Response, ""},
		{"too few bytes", "GET", []string{":status", "200", "content-length", "10"}, []string{"abcde"}, Malformed, "content-length 10, 5 bytes of DATA"},
		{"too many bytes", "GET", []string{":status", "200", "content-length", "3"}, []string{"ab", "cd", "e"}, Malformed, "content-length 3, more bytes of DATA (4)"},
		{"not a number", "GET", []string{":status", "200", "content-length", "x"}, []string{"ab"}, Malformed, "not a number"},
		{"HEAD", "HEAD", []string{":status", "200", "content-length", "10"}, nil, Response, ""},
		{"304", "GET", []string{":status", "304", "content-length", "10"}, nil, Response, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ready(t, Options{Slots: 1, KeepBody: 100})
			s.Start(0, NewRequest(tt.method, "http", "a", "/", nil, nil))
			srv := newServer()
			srv.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block(tt.fields...), EndHeaders: true, EndStream: len(tt.data) == 0})
			for i, d := range tt.data {
				srv.fr.WriteData(1, i == len(tt.data)-1, []byte(d))
			}
			if _, err := s.Feed(srv.buf.Bytes()); err != nil {
				t.Fatal(err)
			}
			if len(s.Events) != 1 || s.Events[0].Kind != tt.want || !strings.Contains(s.Events[0].Cause, tt.cause) {
				t.Fatalf("events %+v, want one %d (%q)", s.Events, tt.want, tt.cause)
			}
			if s.Busy(0) {
				t.Error("the stream is still open")
			}
		})
	}
}

// TestProgressOf tells a stream's request still being written from one
// waiting and one whose response began.
func TestProgressOf(t *testing.T) {
	s := NewSession(Options{Slots: 2})
	srv := newServer()
	srv.fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 0})
	if _, err := s.Feed(srv.buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	s.Start(0, NewRequest("POST", "http", "a", "/", nil, []byte("body"))) // held by the window of 0
	s.Start(1, NewRequest("GET", "http", "a", "/", nil, nil))
	if p := s.ProgressOf(0); p != Writing {
		t.Errorf("a body held by flow control: %d, want Writing", p)
	}
	if p := s.ProgressOf(1); p != Waiting {
		t.Errorf("a request sent whole: %d, want Waiting", p)
	}
	srv = newServer()
	srv.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 3, BlockFragment: block(":status", "200"), EndHeaders: true})
	if _, err := s.Feed(srv.buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if p := s.ProgressOf(1); p != Responding {
		t.Errorf("after the response header: %d, want Responding", p)
	}
}

// TestNoStreamAfterGoAway: SETTINGS and a GOAWAY in the same bytes leave
// a session that is ready and can open no stream.
func TestNoStreamAfterGoAway(t *testing.T) {
	s := NewSession(Options{Slots: 4})
	srv := newServer()
	srv.fr.WriteSettings()
	srv.fr.WriteGoAway(0, http2.ErrCodeNo, nil)
	if _, err := s.Feed(srv.buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if !s.Ready() || s.CanOpen() || !s.Draining() {
		t.Fatalf("ready %v, can open %v, draining %v: want ready, no stream, draining", s.Ready(), s.CanOpen(), s.Draining())
	}
}

// TestLargeBodiesAreQueuedInParts: however wide the server's windows, a
// connection queues about maxQueued of request bodies at a time, and the
// rest as the transport writes Out; every byte goes out once.
func TestLargeBodiesAreQueuedInParts(t *testing.T) {
	s := NewSession(Options{Slots: 4})
	srv := newServer()
	srv.fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1<<31 - 1})
	srv.fr.WriteWindowUpdate(0, 1<<31-1-initialWindow)
	if _, err := s.Feed(srv.buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	s.Sent()
	body := []byte(strings.Repeat("b", 5<<20))
	for slot := range 4 {
		s.Start(slot, NewRequest("POST", "http", "a", "/", nil, body))
	}
	data := 0
	for writes := 0; len(s.Out) > 0; writes++ {
		if len(s.Out) > maxQueued+MaxFrame {
			t.Fatalf("write %d: Out holds %d bytes", writes, len(s.Out))
		}
		fr := http2.NewFramer(nil, bytes.NewReader(s.Out))
		for f, err := fr.ReadFrame(); err == nil; f, err = fr.ReadFrame() {
			if d, ok := f.(*http2.DataFrame); ok {
				data += len(d.Data())
			}
		}
		s.Sent()
	}
	if data != 4*len(body) {
		t.Errorf("%d bytes of DATA, want %d", data, 4*len(body))
	}
}
