package h2fixture

import "golang.org/x/net/http2"

// onHeaders opens a stream (or ends one with trailers) and applies the
// per-connection schedule: refusal, GOAWAY, close or reset.
func (c *conn) onHeaders(f *http2.MetaHeadersFrame) {
	id := f.StreamID
	if st := c.streams[id]; st != nil {
		if f.StreamEnded() {
			c.requestDone(st)
		}
		return
	}
	if id%2 == 0 {
		c.s.violations.Add(1)
		return
	}
	if id <= c.lastID {
		return // trailers of a stream the server reset or refused
	}
	c.lastID = id
	c.s.counter.add(f.PseudoValue("path"))
	if c.goAway != 0 {
		return // above the GOAWAY's last-stream-id: ignored
	}
	if limit, ok := c.b.streamLimit(); ok && len(c.streams) >= int(limit) {
		c.s.violations.Add(1)
		if c.b.RefuseBeyond {
			_ = c.fr.WriteRSTStream(id, http2.ErrCodeRefusedStream)
			c.s.refused.Add(1)
			return
		}
	}
	c.opened++
	st := &stream{id: id, recvWin: c.recvInit, sendWin: c.peerInit}
	c.streams[id] = st
	switch c.opened {
	case c.b.CloseAfter:
		c.end = endLinger
		return
	case c.b.ResetConnAfter:
		c.end = endReset
		return
	case c.b.GoAwayAfter:
		_ = c.fr.WriteGoAway(id, http2.ErrCodeNo, nil)
		c.goAway = id
	}
	if f.StreamEnded() {
		c.requestDone(st)
	}
}

// onData counts request body bytes, checks them against the server's
// windows and grants the windows back as the bytes are read (a stream's
// not with ZeroWindow).
func (c *conn) onData(f *http2.DataFrame) {
	n := int64(f.Length) // padding included: it is flow-controlled
	c.recvConn -= n
	if c.recvConn < 0 {
		c.s.violations.Add(1)
	}
	c.grant(0, n)
	st := c.streams[f.StreamID]
	if st == nil {
		if f.StreamID > c.lastID {
			c.s.violations.Add(1)
		}
		return
	}
	st.recvWin -= n
	if st.recvWin < 0 {
		c.s.violations.Add(1)
	}
	st.body += int64(len(f.Data()))
	c.s.counter.body.Add(int64(len(f.Data())))
	if f.StreamEnded() {
		c.requestDone(st)
		return
	}
	if !c.b.ZeroWindow {
		c.grant(st.id, n)
	}
}

// grant sends WINDOW_UPDATE(id, n) and widens the receive window it names.
func (c *conn) grant(id uint32, n int64) {
	if n == 0 {
		return
	}
	_ = c.fr.WriteWindowUpdate(id, uint32(n))
	if id == 0 {
		c.recvConn += n
	} else {
		c.streams[id].recvWin += n
	}
}
