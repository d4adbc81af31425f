package h2fixture

import (
	"bytes"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/pummel-dev/pummel/internal/fixture"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// floodFrames is how many frames one write of a flood carries.
const floodFrames = 4096

// floodFields is how many literal fields one CONTINUATION frame of
// ContinuationFlood carries: about 100 bytes each, 4 KB a frame, well
// under the 16,384 bytes a client's SETTINGS_MAX_FRAME_SIZE allows at least.
const floodFields = 40

// checkHostile rejects a hostile server combined with anything but TLS:
// each is all its server does.
func (b *Behaviour) checkHostile() error {
	n := fixture.Count(b.NoSettings, b.FloodPings, b.FloodSettings, b.ContinuationFlood, b.SettingsThenGoAway)
	only := Behaviour{TLS: b.TLS, NoSettings: b.NoSettings, FloodPings: b.FloodPings, FloodSettings: b.FloodSettings,
		ContinuationFlood: b.ContinuationFlood, SettingsThenGoAway: b.SettingsThenGoAway}
	if n > 1 || n == 1 && *b != only {
		return errors.New("h2fixture: NoSettings, FloodPings, FloodSettings, ContinuationFlood and SettingsThenGoAway each combine with nothing but TLS")
	}
	return nil
}

// floodChunk returns what one write of a control-frame flood sends:
// floodFrames PINGs or empty SETTINGS frames; nil for any other server.
func floodChunk(b *Behaviour) []byte {
	if !b.FloodPings && !b.FloodSettings {
		return nil
	}
	var buf bytes.Buffer
	fr := http2.NewFramer(&buf, nil)
	for i := range floodFrames {
		if b.FloodPings {
			_ = fr.WritePing(false, [8]byte{'f', 'l', 'o', 'o', 'd', 0, byte(i >> 8), byte(i)})
		} else {
			_ = fr.WriteSettings()
		}
	}
	return buf.Bytes()
}

// floodFragment returns the header block fragment of each CONTINUATION
// frame of ContinuationFlood: literal fields that are never indexed, so
// that every fragment is valid HPACK on its own and the decoder's table
// stays empty.
func floodFragment() []byte {
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	for range floodFields {
		_ = enc.WriteField(hpack.HeaderField{Name: "x-flood", Value: strings.Repeat("f", 90), Sensitive: true})
	}
	return buf.Bytes()
}

// hostile serves a connection of a server that does nothing but
// misbehave, after the client's preface, and reports whether it did.
func (c *conn) hostile() bool {
	switch {
	case c.b.NoSettings:
		_, _ = io.Copy(io.Discard, c.br)
	case c.b.FloodPings, c.b.FloodSettings:
		_ = c.fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: maxWindow})
		_ = c.fr.WriteWindowUpdate(0, maxWindow-defaultWindow)
		if c.bw.Flush() == nil {
			flood(c.nc, c.s.flood)
		}
	case c.b.SettingsThenGoAway:
		c.writeSettings()
		_ = c.fr.WriteGoAway(0, http2.ErrCodeNo, nil)
		if c.bw.Flush() == nil { // the SETTINGS and the GOAWAY in one write
			c.discard()
		}
	default:
		return false
	}
	return true
}

// flood writes chunk again and again until a write fails: the client
// closed, or the test's Cleanup closed the server.
func flood(nc net.Conn, chunk []byte) {
	for {
		if _, err := nc.Write(chunk); err != nil {
			return
		}
	}
}

// discard reads the client's frames until the connection ends. Each
// HEADERS frame (every one comes after the server's GOAWAY) counts as a
// stream and as a violation, as does a frame the Framer rejects on a
// stream.
func (c *conn) discard() {
	for {
		f, err := c.fr.ReadFrame()
		var se http2.StreamError
		switch {
		case errors.As(err, &se):
			c.s.violations.Add(1)
		case err != nil:
			return
		}
		if h, ok := f.(*http2.MetaHeadersFrame); ok {
			c.s.counter.add(h.PseudoValue("path"))
			c.s.violations.Add(1)
		}
	}
}

// floodContinuation answers stream id with a header block that never
// ends: HEADERS without END_HEADERS, then CONTINUATION frames until a
// write fails. The connection then ends: nothing else is answered.
func (c *conn) floodContinuation(id uint32) {
	c.faulted, c.end = true, endReset
	_ = c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: c.s.block})
	if c.bw.Flush() != nil {
		return
	}
	var buf bytes.Buffer
	fr := http2.NewFramer(&buf, nil)
	for range floodFrames / 64 { // 64 frames of 4 KB: 256 KB a write
		_ = fr.WriteContinuation(id, false, c.s.fragment)
	}
	flood(c.nc, buf.Bytes())
}

// Close stops the server now, as the test's Cleanup would: it closes
// every connection (which ends a flood) and waits for their goroutines.
// Calling it again, or the Cleanup after it, does nothing.
func (s *Server) Close() { s.acc.close() }
