package main

import (
	"bytes"
	"time"
)

// session is one connection's state, shared by both clients: the part of
// a response header that has not fully arrived, the body bytes still to
// skip, and what the connection counted. Only its event loop touches it
// while the load runs; main reads it after the loop has stopped.
type session struct {
	conn  gnetConn // the gnet connection, until its first request is sent
	carry []byte   // a partial response header, kept until the rest arrives
	skip  int      // body bytes of the current response not yet read

	sent      time.Time     // when the request in flight was written
	responses int           // complete responses
	non2xx    int           // of which with a status outside 2xx
	bytes     int           // bytes read
	latency   time.Duration // sum of the responses' latencies
	slowest   time.Duration
}

var headerEnd = []byte("\r\n\r\n")

// feed takes the bytes of one read and returns how many responses they
// completed. A client in closed loop writes its next request for each.
func (s *session) feed(data []byte) (done int) {
	s.bytes += len(data)
	for len(data) > 0 {
		if s.skip > 0 {
			k := min(s.skip, len(data))
			s.skip, data = s.skip-k, data[k:]
			if s.skip == 0 {
				done++
			}
			continue
		}
		var ok bool
		if data, ok = s.header(data); !ok {
			break
		}
		if s.skip == 0 {
			done++
		}
	}
	return done
}

// header consumes a response header from the front of data (after what
// carry holds), sets skip to its body's length and returns the bytes
// after it. Without the header's end it keeps the bytes in carry and
// reports false.
func (s *session) header(data []byte) (rest []byte, ok bool) {
	buf := data
	if len(s.carry) > 0 {
		s.carry = append(s.carry, data...)
		buf = s.carry
	}
	i := bytes.Index(buf, headerEnd)
	if i < 0 {
		if len(s.carry) == 0 {
			s.carry = append(s.carry, data...)
		}
		return nil, false
	}
	head := buf[:i+len(headerEnd)]
	if len(head) < 12 || head[9] != '2' { // "HTTP/1.1 200"
		s.non2xx++
	}
	s.skip = contentLength(head)
	rest = buf[len(head):]
	if len(s.carry) > 0 {
		// rest lies in carry, which the next partial header overwrites
		// from its start: append copies forward, so that is safe.
		s.carry = s.carry[:0]
	}
	return rest, true
}

// answered notes a complete response at now, which is also when the
// next request leaves: one clock reading per response, as pummel takes.
func (s *session) answered(now time.Time) {
	d := now.Sub(s.sent)
	s.responses++
	s.latency += d
	s.slowest = max(s.slowest, d)
	s.sent = now
}

var contentLengthName = []byte("content-length:")

// contentLength reads the Content-Length of a response header, 0 without
// one (a load client for an empty 200 needs no chunked bodies).
func contentLength(head []byte) int {
	for len(head) > 0 {
		i := bytes.IndexByte(head, '\n')
		if i < 0 {
			return 0
		}
		head = head[i+1:]
		if len(head) > len(contentLengthName) && head[0]|0x20 == 'c' &&
			bytes.EqualFold(head[:len(contentLengthName)], contentLengthName) {
			return digits(head[len(contentLengthName):])
		}
	}
	return 0
}

// digits reads the decimal number at the start of b, after blanks.
func digits(b []byte) int {
	b = bytes.TrimLeft(b, " \t")
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}
