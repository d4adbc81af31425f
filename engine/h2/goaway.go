package h2

import (
	"encoding/binary"

	"golang.org/x/net/http2"
)

// How a GOAWAY is handled, from the frame to the next connection: all of
// it that is HTTP/2's is in this file, the same for both transports. The
// engine applies its outcomes: engine/h2streams.go counts each
// Unprocessed event, and engine/h2decide.go's drained replaces the
// connection as BackOffAfterDrain says.
//
//  1. The frame (goAwayFrame): every open stream above its last stream
//     id ends at once as an Unprocessed event with the frame's error
//     code, which the engine counts as one `read` error, "not processed:
//     GOAWAY (CODE)" (RFC 9113 §6.8: the server did not and will not
//     process it). The streams at or below the last id go on and end as
//     any stream does.
//  2. No stream opens after it: Draining is true and CanOpen false from
//     the frame on, also when SETTINGS and GOAWAY came in one read, so
//     no transport opens a stream the server announced it will refuse.
//     The same holds once this client's stream ids run out.
//  3. Once every stream it let finish has ended (Drained), the
//     connection is done and is replaced: a reconnect, not an error. A
//     connection that completed no stream is replaced after the backoff
//     (BackOffAfterDrain), so that a server that answers every connection
//     with a GOAWAY is not redialed in a hot loop.

// goAwayFrame notes a GOAWAY: the streams above its last id end as not
// processed; those at or below it still complete, and no new stream opens.
func (s *Session) goAwayFrame(id uint32, p []byte) error {
	if id != 0 || len(p) < 8 {
		return s.protocolError(http2.ErrCodeProtocol, "a malformed GOAWAY frame")
	}
	last := binary.BigEndian.Uint32(p) & (1<<31 - 1)
	code := http2.ErrCode(binary.BigEndian.Uint32(p[4:]))
	s.goAway = true
	for i := range s.slots {
		if id := s.slots[i].id; id != 0 && id > last {
			s.Events = append(s.Events, Event{Slot: i, Kind: Unprocessed, Code: code})
			s.end(i)
		}
	}
	return nil
}

// Draining reports whether the connection takes no new streams: the
// server sent a GOAWAY, or the stream ids ran out.
func (s *Session) Draining() bool { return s.goAway || s.nextID > 1<<31-1 }

// Drained reports whether a draining connection has no stream left: it
// is done, and goes on a new connection.
func (s *Session) Drained() bool { return s.Draining() && s.open == 0 }

// BackOffAfterDrain reports whether a drained connection that completed
// served streams waits the backoff before the next dial: it completed
// none.
func BackOffAfterDrain(served int) bool { return served == 0 }
