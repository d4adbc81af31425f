package h2fixture

import (
	"bytes"
	"errors"
	"os"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// blockedWrite is how much a test writes to show that a server does not
// read: more than loopback's socket buffers on both sides can hold.
const blockedWrite = 64 << 20

// readFrame reads one frame without answering it (client.read acks
// SETTINGS, which a server that does not read would make block).
func (c *client) readFrame() http2.Frame {
	c.t.Helper()
	f, err := c.fr.ReadFrame()
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	return f
}

// notReading fails the test unless a large write to the server blocks
// until its deadline: the server reads nothing.
func (c *client) notReading() {
	c.t.Helper()
	_ = c.nc.SetWriteDeadline(time.Now().Add(time.Second))
	_, err := c.nc.Write(make([]byte, blockedWrite))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		c.t.Errorf("writing %d MB to the server: %v, want the deadline exceeded (it should not read)", blockedWrite>>20, err)
	}
}

func TestFloods(t *testing.T) {
	cases := []struct {
		name  string
		b     Behaviour
		flood func(http2.Frame) bool // one frame of the flood
	}{
		{"PINGs h2c", Behaviour{FloodPings: true}, isPing},
		{"PINGs TLS", Behaviour{FloodPings: true, TLS: true}, isPing},
		{"SETTINGS h2c", Behaviour{FloodSettings: true}, isSettings},
		{"SETTINGS TLS", Behaviour{FloodSettings: true, TLS: true}, isSettings},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Start(t, tc.b)
			c := dial(t, s.Addr(), s.ClientTLS(), bigWindow)
			if f, ok := c.readFrame().(*http2.SettingsFrame); !ok || f.IsAck() || f.NumSettings() != 1 ||
				f.Setting(0) != (http2.Setting{ID: http2.SettingInitialWindowSize, Val: maxWindow}) {
				t.Fatalf("first frame %v, want the server's SETTINGS with an initial window of 2^31-1", f)
			}
			if f, ok := c.readFrame().(*http2.WindowUpdateFrame); !ok || f.StreamID != 0 || f.Increment != maxWindow-defaultWindow {
				t.Fatalf("second frame %v, want a WINDOW_UPDATE opening the connection's window to 2^31-1", f)
			}
			const n = 3 * floodFrames // more than one write's worth
			for i := range n {
				if f := c.readFrame(); !tc.flood(f) {
					t.Fatalf("frame %d of the flood is %v", i, f)
				}
			}
			c.notReading()
			s.Close() // ends the flood
			want(t, "Connections", s.Connections(), 1)
		})
	}
}

func isPing(f http2.Frame) bool {
	p, ok := f.(*http2.PingFrame)
	return ok && !p.IsAck()
}

func isSettings(f http2.Frame) bool {
	s, ok := f.(*http2.SettingsFrame)
	return ok && !s.IsAck() && s.NumSettings() == 0
}

func TestContinuationFlood(t *testing.T) {
	for _, tlsOn := range []bool{false, true} {
		t.Run(transportName(tlsOn), func(t *testing.T) {
			s := Start(t, Behaviour{ContinuationFlood: true, TLS: tlsOn})
			c := dial(t, s.Addr(), s.ClientTLS(), bigWindow)
			id := c.get()
			var fields []hpack.HeaderField
			dec := hpack.NewDecoder(4096, func(f hpack.HeaderField) { fields = append(fields, f) })
			for {
				if h, ok := c.readFrame().(*http2.HeadersFrame); ok {
					want(t, "HEADERS stream", h.StreamID, id)
					want(t, "END_HEADERS", h.HeadersEnded(), false)
					want(t, "END_STREAM", h.StreamEnded(), false)
					if _, err := dec.Write(h.HeaderBlockFragment()); err != nil {
						t.Fatal(err)
					}
					break
				}
			}
			const n = 1000 // 4 MB of header block
			for i := range n {
				f, ok := c.readFrame().(*http2.ContinuationFrame)
				if !ok || f.StreamID != id || f.HeadersEnded() {
					t.Fatalf("frame %d after the HEADERS: %v, want a CONTINUATION on stream %d without END_HEADERS", i, f, id)
				}
				if _, err := dec.Write(f.HeaderBlockFragment()); err != nil {
					t.Fatalf("CONTINUATION %d is not HPACK: %v", i, err)
				}
			}
			want(t, "fields", len(fields), 2+n*floodFields)
			want(t, "first field", fields[0].Name+": "+fields[0].Value, ":status: 200")
			want(t, "a flood field's name", fields[len(fields)-1].Name, "x-flood")
			c.notReading()
			s.Close()
		})
	}
}

func TestSettingsThenGoAway(t *testing.T) {
	for _, tlsOn := range []bool{false, true} {
		t.Run(transportName(tlsOn), func(t *testing.T) {
			s := Start(t, Behaviour{SettingsThenGoAway: true, TLS: tlsOn})
			c := dial(t, s.Addr(), s.ClientTLS(), bigWindow)
			// One write arrives in one read on loopback (and in one TLS
			// record): both frames are in the first read.
			buf := make([]byte, 1024)
			n, err := c.nc.Read(buf)
			if err != nil {
				t.Fatal(err)
			}
			fr := http2.NewFramer(nil, bytes.NewReader(buf[:n]))
			if f, err := fr.ReadFrame(); err != nil || f.Header().Type != http2.FrameSettings {
				t.Fatalf("first frame %v (%v), want SETTINGS", f, err)
			}
			f, err := fr.ReadFrame()
			g, ok := f.(*http2.GoAwayFrame)
			if err != nil || !ok || g.LastStreamID != 0 || g.ErrCode != http2.ErrCodeNo {
				t.Fatalf("second frame %v (%v), want GOAWAY(0, NO_ERROR) in the same read", f, err)
			}
			c.get()
			c.get()
			_ = c.nc.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
			if _, err := c.nc.Read(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
				t.Errorf("read after the GOAWAY: %v, want nothing: the connection stays open, unanswered", err)
			}
			for end := time.Now().Add(testDeadline); s.Violations() < 2 && time.Now().Before(end); {
				time.Sleep(5 * time.Millisecond)
			}
			want(t, "Violations", s.Violations(), 2)
			want(t, "Streams", s.Streams(), 2)
			want(t, "Answered", s.Answered(), 0)
			want(t, "Connections", s.Connections(), 1)
		})
	}
}

// transportName names a subtest: "h2c" or "TLS".
func transportName(tlsOn bool) string {
	if tlsOn {
		return "TLS"
	}
	return "h2c"
}
