package h2fixture

import (
	"errors"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/http2"
)

// sync sends a PING and reads until its ack: every frame the client sent
// before it has been handled by the server.
func (c *client) sync() {
	c.t.Helper()
	c.got.pong = false
	c.must(c.fr.WritePing(false, [8]byte{'s', 'y', 'n', 'c'}))
	c.flush()
	c.until(func(r *record) bool { return r.pong })
}

// data sends one DATA frame.
func (c *client) data(id uint32, b string, end bool) {
	c.must(c.fr.WriteData(id, end, []byte(b)))
	c.flush()
}

// want fails the test if got != want.
func want[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// hasSetting reports whether the server's SETTINGS included id = val.
func hasSetting(r *record, id http2.SettingID, val uint32) bool {
	return slices.Contains(r.settings, http2.Setting{ID: id, Val: val})
}

func TestRawBehaviours(t *testing.T) {
	cases := []struct {
		name   string
		b      Behaviour
		window uint32 // the client's initial stream window; 0 means bigWindow
		check  func(t *testing.T, s *Server, c *client)
	}{
		{"normal h2c", Behaviour{}, 0, checkNormal},
		{"normal TLS", Behaviour{TLS: true}, 0, checkNormal},
		{"status and big body", Behaviour{Status: 404, BodySize: 100_000}, 0, func(t *testing.T, s *Server, c *client) {
			id := c.get()
			c.until(ended(id))
			want(t, "status", c.got.status[id], "404")
			want(t, "body", c.got.body[id], 100_000)
			want(t, "largest DATA", slices.Max(c.got.datas), defaultMaxFrame)
		}},
		{"many streams with bodies", Behaviour{BodySize: 70_000}, 0, func(t *testing.T, s *Server, c *client) {
			var ids []uint32
			for range 20 {
				ids = append(ids, c.open("/many", true))
			}
			for _, id := range ids {
				c.data(id, strings.Repeat("b", 100), true)
			}
			c.until(ended(ids...))
			for _, id := range ids {
				want(t, "body", c.got.body[id], 70_000)
			}
			want(t, "Answered", s.Answered(), 20)
			want(t, "StreamsFor /many", s.StreamsFor("/many"), 20)
			want(t, "BodyBytes", s.BodyBytes(), 2000)
			want(t, "Violations", s.Violations(), 0)
		}},
		{"DataChunk", Behaviour{BodySize: 35, DataChunk: 10}, 0, func(t *testing.T, s *Server, c *client) {
			c.until(ended(c.get()))
			want(t, "DATA sizes", slices.Equal(c.got.datas, []int{10, 10, 10, 5}), true)
		}},
		{"client window respected", Behaviour{BodySize: 25}, 10, func(t *testing.T, s *Server, c *client) {
			id := c.get()
			c.until(func(r *record) bool { return r.body[id] == 10 })
			c.must(c.fr.WriteWindowUpdate(id, 15))
			c.flush()
			c.until(ended(id))
			want(t, "DATA sizes", slices.Equal(c.got.datas, []int{10, 15}), true)
		}},
		{"Continuation", Behaviour{Continuation: 1, BodySize: 3}, 0, func(t *testing.T, s *Server, c *client) {
			id := c.get()
			c.until(ended(id))
			want(t, "HEADERS", c.got.headers, 1)
			want(t, "CONTINUATION", c.got.conts, len(s.block)-1)
			want(t, "status", c.got.status[id], "200")
		}},
		{"RefuseBeyond", Behaviour{MaxConcurrentStreams: 2, RefuseBeyond: true, StallEvery: 1}, 0, func(t *testing.T, s *Server, c *client) {
			c.until(func(r *record) bool { return r.settled })
			want(t, "MAX_CONCURRENT_STREAMS 2 sent", hasSetting(&c.got, http2.SettingMaxConcurrentStreams, 2), true)
			c.get()
			c.get()
			id := c.get()
			c.until(func(r *record) bool { _, ok := r.reset[id]; return ok })
			want(t, "reset code", c.got.reset[id], http2.ErrCodeRefusedStream)
			want(t, "Refused", s.Refused(), 1)
			want(t, "Violations", s.Violations(), 1)
			want(t, "Streams", s.Streams(), 3)
		}},
		{"excess counted, not refused", Behaviour{MaxConcurrentStreams: 1, StallEvery: 1}, 0, func(t *testing.T, s *Server, c *client) {
			c.get()
			c.get()
			c.sync()
			want(t, "Violations", s.Violations(), 1)
			want(t, "Refused", s.Refused(), 0)
		}},
		{"ResetEvery", Behaviour{ResetEvery: 2, ResetCode: http2.ErrCodeInternal}, 0, func(t *testing.T, s *Server, c *client) {
			ids := []uint32{c.get(), c.get(), c.get(), c.get()}
			c.until(func(r *record) bool { return len(r.reset) == 2 && r.ended[ids[0]] && r.ended[ids[2]] })
			want(t, "reset 2nd", c.got.reset[ids[1]], http2.ErrCodeInternal)
			want(t, "reset 4th", c.got.reset[ids[3]], http2.ErrCodeInternal)
			want(t, "Reset", s.Reset(), 2)
			want(t, "Answered", s.Answered(), 2)
		}},
		{"StallEvery", Behaviour{StallEvery: 2}, 0, func(t *testing.T, s *Server, c *client) {
			first, second := c.get(), c.get()
			c.until(ended(first))
			c.sync()
			want(t, "second answered", c.got.ended[second] || c.got.status[second] != "", false)
			want(t, "Answered", s.Answered(), 1)
			want(t, "Streams", s.Streams(), 2)
		}},
		{"client reset frees a slot", Behaviour{MaxConcurrentStreams: 1, RefuseBeyond: true, StallEvery: 2}, 0, func(t *testing.T, s *Server, c *client) {
			c.until(ended(c.get()))
			stalled := c.get()
			c.sync()
			c.must(c.fr.WriteRSTStream(stalled, http2.ErrCodeCancel))
			c.until(ended(c.get()))
			want(t, "Refused", s.Refused(), 0)
			want(t, "Violations", s.Violations(), 0)
			want(t, "Answered", s.Answered(), 2)
		}},
		{"GoAwayAfter", Behaviour{GoAwayAfter: 2}, 0, func(t *testing.T, s *Server, c *client) {
			first, second := c.get(), c.open("/body", true)
			third := c.get()
			c.sync()
			c.data(second, "ab", true)
			err := c.drain()
			want(t, "clean close", isEOF(err), true)
			want(t, "GOAWAY last-stream-id", c.got.goAway.LastStreamID, second)
			want(t, "GOAWAY code", c.got.goAway.ErrCode, http2.ErrCodeNo)
			want(t, "first and second answered", c.got.ended[first] && c.got.ended[second], true)
			want(t, "third answered", c.got.ended[third], false)
			want(t, "Streams", s.Streams(), 3)
			want(t, "Answered", s.Answered(), 2)
		}},
		{"CloseAfter", Behaviour{CloseAfter: 2}, 0, checkEnds("clean close", isEOF)},
		{"ResetConnAfter", Behaviour{ResetConnAfter: 2}, 0, checkEnds("connection reset", func(err error) bool {
			return errors.Is(err, syscall.ECONNRESET)
		})},
		{"Window1", Behaviour{Window1: true}, 0, checkWindow1},
		{"AnswerUnopened", Behaviour{AnswerUnopened: true}, 0, func(t *testing.T, s *Server, c *client) {
			id := c.get()
			c.until(ended(id, unopenedID))
			want(t, "unopened status", c.got.status[unopenedID], "200")
			want(t, "Answered", s.Answered(), 1)
		}},
		{"ZeroStreams", Behaviour{ZeroStreams: true, RefuseBeyond: true}, 0, func(t *testing.T, s *Server, c *client) {
			c.until(func(r *record) bool { return r.settled })
			want(t, "MAX_CONCURRENT_STREAMS 0 sent", hasSetting(&c.got, http2.SettingMaxConcurrentStreams, 0), true)
			id := c.get()
			c.until(func(r *record) bool { _, ok := r.reset[id]; return ok })
			want(t, "reset code", c.got.reset[id], http2.ErrCodeRefusedStream)
			want(t, "Violations", s.Violations(), 1)
			want(t, "Answered", s.Answered(), 0)
		}},
		{"ZeroWindow", Behaviour{ZeroWindow: true}, 0, checkZeroWindow},
		{"ContentLength above the body", Behaviour{BodySize: 5, ContentLength: 10}, 0, checkLength(5, "10")},
		{"ContentLength below the body", Behaviour{BodySize: 10, ContentLength: 5}, 0, checkLength(10, "5")},
		{"StallMidBody", Behaviour{BodySize: 10, StallMidBody: 4}, 0, func(t *testing.T, s *Server, c *client) {
			first, second := c.get(), c.get()
			c.until(func(r *record) bool { return r.body[first] == 4 && r.body[second] == 4 })
			c.sync()
			want(t, "status", c.got.status[first], "200")
			want(t, "content-length", c.got.length[first], "10")
			want(t, "first ended", c.got.ended[first], false)
			want(t, "second ended", c.got.ended[second], false)
			want(t, "first body", c.got.body[first], 4)
			want(t, "Answered", s.Answered(), 0)
			want(t, "Streams", s.Streams(), 2)
		}},
		{"NoSettings", Behaviour{NoSettings: true}, 0, func(t *testing.T, s *Server, c *client) {
			_ = c.nc.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
			err := c.read()
			want(t, "read timed out", errors.Is(err, os.ErrDeadlineExceeded), true)
			want(t, "SETTINGS seen", c.got.settled, false)
		}},
		{"BadFrame", Behaviour{BadFrame: true}, 0, func(t *testing.T, s *Server, c *client) {
			c.get()
			err := c.drain()
			want(t, "frame too large", errors.Is(err, http2.ErrFrameTooLarge), true)
		}},
		{"BadHPACK", Behaviour{BadHPACK: true}, 0, func(t *testing.T, s *Server, c *client) {
			c.get()
			c.until(func(r *record) bool { return r.decodeErr != nil })
			want(t, "Answered", s.Answered(), 0)
		}},
		{"WindowOverflow", Behaviour{WindowOverflow: true}, 0, func(t *testing.T, s *Server, c *client) {
			c.get()
			c.until(func(r *record) bool { return r.updates[0] > 0 })
			want(t, "connection window", defaultWindow+c.got.updates[0] > maxWindow, true)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Start(t, tc.b)
			window := tc.window
			if window == 0 {
				window = bigWindow
			}
			tc.check(t, s, dial(t, s.Addr(), s.ClientTLS(), window))
		})
	}
}

// checkNormal: a request is answered, SETTINGS and PING are acked, and
// the counters agree.
func checkNormal(t *testing.T, s *Server, c *client) {
	id := c.open("/a", false)
	c.until(ended(id))
	c.sync()
	want(t, "status", c.got.status[id], "200")
	want(t, "SETTINGS acked", c.got.acked, true)
	want(t, "Streams", s.Streams(), 1)
	want(t, "StreamsFor /a", s.StreamsFor("/a"), 1)
	want(t, "Answered", s.Answered(), 1)
	want(t, "Violations", s.Violations(), 0)
	want(t, "Connections", s.Connections(), 1)
}

// checkWindow1: a body trickles in one byte per WINDOW_UPDATE, and a
// client that sends beyond the window is counted.
func checkWindow1(t *testing.T, s *Server, c *client) {
	c.until(func(r *record) bool { return r.settled })
	want(t, "INITIAL_WINDOW_SIZE 1 sent", hasSetting(&c.got, http2.SettingInitialWindowSize, 1), true)
	id := c.open("/up", true)
	for i, b := range "hello" {
		c.data(id, string(b), i == 4)
		if i < 4 {
			c.until(func(r *record) bool { return r.updates[id] == int64(i+1) })
		}
	}
	c.until(ended(id))
	want(t, "Violations", s.Violations(), 0)
	want(t, "Bodies", slices.Equal(s.Bodies(), []int64{5}), true)
	over := c.open("/up", true)
	c.data(over, "ab", true)
	c.until(ended(over))
	want(t, "Violations after 2 bytes", s.Violations(), 1)
	want(t, "BodyBytes", s.BodyBytes(), 7)
}

// checkZeroWindow: the server's initial stream window is 0 and stays so:
// a request without a body is answered, one with a body gets no window,
// and DATA sent anyway is counted.
func checkZeroWindow(t *testing.T, s *Server, c *client) {
	c.until(func(r *record) bool { return r.settled })
	want(t, "INITIAL_WINDOW_SIZE 0 sent", hasSetting(&c.got, http2.SettingInitialWindowSize, 0), true)
	up := c.open("/up", true)
	c.until(ended(c.get()))
	c.sync()
	want(t, "window granted before DATA", c.got.updates[up], 0)
	c.data(up, "a", false)
	c.data(up, "b", true)
	c.until(ended(up))
	want(t, "window granted after DATA", c.got.updates[up], 0)
	want(t, "Violations", s.Violations(), 2)
	want(t, "Answered", s.Answered(), 2)
}

// checkLength returns a check that a response announces length as its
// content-length and carries body bytes, with END_STREAM.
func checkLength(body int, length string) func(*testing.T, *Server, *client) {
	return func(t *testing.T, s *Server, c *client) {
		id := c.get()
		c.until(ended(id))
		want(t, "content-length", c.got.length[id], length)
		want(t, "body", c.got.body[id], body)
		want(t, "Answered", s.Answered(), 1)
	}
}

// checkEnds returns a check that the first stream is answered and the
// second ends the connection with an error that ends accepts.
func checkEnds(what string, ends func(error) bool) func(*testing.T, *Server, *client) {
	return func(t *testing.T, s *Server, c *client) {
		c.until(ended(c.get()))
		c.get()
		want(t, what, ends(c.drain()), true)
		want(t, "Answered", s.Answered(), 1)
		want(t, "Streams", s.Streams(), 2)
	}
}
