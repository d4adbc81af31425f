package h2fixture

import "golang.org/x/net/http2"

// unopenedID is the stream AnswerUnopened answers on: the highest odd id,
// which no test client opens.
const unopenedID = 1<<31 - 1

// badFrame is what BadFrame sends: an HTTP/1.1 answer, which read as a
// frame header announces a 4.7 MB frame.
const badFrame = "HTTP/1.1 400 Bad Request\r\n\r\n"

// badHPACK is a header block that is not HPACK: an indexed field of index 0.
var badHPACK = []byte{0x80}

// emptyBlock is the header block of AnswerUnopened's response.
var emptyBlock = headerBlock(&Behaviour{})

// requestDone decides what answers a complete request: a fault, a reset,
// a stall or the response.
func (c *conn) requestDone(st *stream) {
	c.s.complete(st.body)
	if c.faulted {
		return
	}
	if c.b.ContinuationFlood {
		c.floodContinuation(st.id)
		return
	}
	if !c.decided {
		c.decided = true
		if c.b.fault() {
			c.writeFault(st.id)
			c.faulted = true
			return
		}
		if c.b.AnswerUnopened {
			c.writeHeaders(unopenedID, emptyBlock, true)
		}
	}
	n := c.s.seq.Add(1)
	if every := int64(c.b.ResetEvery); every > 0 && n%every == 0 {
		_ = c.fr.WriteRSTStream(st.id, c.b.ResetCode)
		c.s.reset.Add(1)
		c.forget(st.id)
		return
	}
	if every := int64(c.b.StallEvery); every > 0 && n%every == 0 {
		return
	}
	c.respond(st)
}

// writeFault sends the configured protocol violation.
func (c *conn) writeFault(id uint32) {
	switch {
	case c.b.BadFrame:
		_, _ = c.bw.WriteString(badFrame)
	case c.b.BadHPACK:
		c.writeHeaders(id, badHPACK, true)
	case c.b.WindowOverflow:
		_ = c.fr.WriteWindowUpdate(0, maxWindow)
	}
}

// respond sends the response HEADERS and queues its body (with
// StallMidBody, the part of it that is sent).
func (c *conn) respond(st *stream) {
	empty := len(c.s.payload) == 0
	if empty {
		c.s.answered.Add(1) // before the client can see END_STREAM
	}
	c.writeHeaders(st.id, c.s.block, empty)
	if empty {
		c.forget(st.id)
		return
	}
	st.out = c.s.payload
	if n := c.b.StallMidBody; n > 0 {
		st.out, st.stall = st.out[:n], true
	}
	c.pending = append(c.pending, st)
}

// writeHeaders sends a header block, split into HEADERS and CONTINUATION
// fragments of Behaviour.Continuation bytes if it is set.
func (c *conn) writeHeaders(id uint32, block []byte, end bool) {
	size := c.b.Continuation
	if size == 0 || size >= len(block) {
		size = len(block)
	}
	_ = c.fr.WriteHeaders(http2.HeadersFrameParam{
		StreamID: id, BlockFragment: block[:size], EndStream: end, EndHeaders: size == len(block),
	})
	for rest := block[size:]; len(rest) > 0; {
		n := min(size, len(rest))
		_ = c.fr.WriteContinuation(id, n == len(rest), rest[:n])
		rest = rest[n:]
	}
}

// sendData sends queued response bodies, round robin, as far as the
// client's windows allow; a stalled one ends without END_STREAM.
func (c *conn) sendData() {
	for progress := true; progress; {
		progress = false
		for i := 0; i < len(c.pending); i++ {
			st := c.pending[i]
			n := c.sendable(st)
			if n == 0 {
				continue
			}
			progress = true
			last := n == len(st.out)
			end := last && !st.stall
			if end {
				// Counted before the write: a frame larger than the
				// write buffer goes straight out, and a client that
				// saw END_STREAM must find the response counted.
				c.s.answered.Add(1)
			}
			_ = c.fr.WriteData(st.id, end, st.out[:n])
			st.out = st.out[n:]
			st.sendWin -= int64(n)
			c.sendWin -= int64(n)
			switch {
			case end:
				c.forget(st.id)
				i--
			case last: // stalled: the stream stays open, with nothing to send
				c.pending = append(c.pending[:i], c.pending[i+1:]...)
				i--
			}
		}
	}
}

// sendable returns how many body bytes of st the next DATA frame carries.
func (c *conn) sendable(st *stream) int {
	n := min(len(st.out), c.maxFrame)
	if c.b.DataChunk > 0 {
		n = min(n, c.b.DataChunk)
	}
	n = int(min(int64(n), st.sendWin, c.sendWin))
	return max(n, 0)
}
