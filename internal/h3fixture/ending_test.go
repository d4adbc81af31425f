package h3fixture

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quic-go/quic-go"
)

// TestGoAway opens five streams at once: the first three are answered,
// the GOAWAY names the fourth, which is rejected with the fifth, and the
// connection then closes with H3_NO_ERROR.
func TestGoAway(t *testing.T) {
	s := Start(t, Behaviour{GoAwayAfter: 3, BodySize: 2000})
	c := dial(t, s)
	var strs []*quic.Stream
	for range 5 {
		str, err := c.request("/", 0)
		if err != nil {
			t.Fatal(err)
		}
		strs = append(strs, str)
	}
	select {
	case id := <-c.goAway:
		want(t, "GOAWAY id", id, strs[3].StreamID())
	case <-time.After(testDeadline):
		t.Fatal("no GOAWAY")
	}
	for i, str := range strs {
		r, err := readResponse(str)
		if i < 3 && (err != nil || !r.ok(200, 2000)) {
			t.Errorf("stream %d: %+v (%v), want a response", str.StreamID(), r, err)
		}
		if i >= 3 {
			want(t, "rejection code", streamCode(err), CodeRequestRejected)
		}
	}
	select {
	case <-c.qc.Context().Done():
		want(t, "close code", closeCode(context.Cause(c.qc.Context())), CodeNoError)
	case <-time.After(testDeadline):
		t.Fatal("the connection stays open after the GOAWAY")
	}
	want(t, "Streams", s.Streams(), 5)
	want(t, "Requests", s.Requests(), 3)
	want(t, "Responses", s.Responses(), 3)
	want(t, "Rejected", s.Rejected(), 2)
}

// TestGoAwayWithdrawn: after the GOAWAY, the client resets the next
// stream before sending a byte (a request taken back, RFC 9114 §5.2),
// then sends a request on the one after: the first is withdrawn, the
// second rejected.
func TestGoAwayWithdrawn(t *testing.T) {
	s := Start(t, Behaviour{GoAwayAfter: 1})
	c := dial(t, s)
	c.get("/")
	select {
	case <-c.goAway:
	case <-time.After(testDeadline):
		t.Fatal("no GOAWAY")
	}
	ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
	defer cancel()
	taken, err := c.qc.OpenStreamSync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	taken.CancelRead(CodeRequestCancelled)
	taken.CancelWrite(CodeRequestCancelled)
	str, err := c.request("/", 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = readResponse(str)
	want(t, "rejection code", streamCode(err), CodeRequestRejected)
	if !eventually(func() bool { return s.Withdrawn() == 1 }) {
		t.Errorf("Withdrawn = %d, want 1", s.Withdrawn())
	}
	want(t, "Rejected", s.Rejected(), 1)
	want(t, "Requests", s.Requests(), 1)
}

// TestGoAwayExact opens many streams with large bodies on several
// connections at once: every response the server counts reaches the
// client before the close, and every other stream is rejected or cut by
// the H3_NO_ERROR close.
func TestGoAwayExact(t *testing.T) {
	const conns, streams, after, body = 4, 30, 10, 50_000
	s := Start(t, Behaviour{GoAwayAfter: after, BodySize: body, ResetEvery: 7})
	var got, refused, resets atomic.Int64
	var wg sync.WaitGroup
	for range conns {
		c := dial(t, s)
		for range streams {
			wg.Go(func() {
				str, err := c.request("/", 0)
				if err != nil {
					refused.Add(1) // the connection closed before the stream opened
					return
				}
				r, err := readResponse(str)
				switch {
				case err == nil && r.ok(200, body):
					got.Add(1)
				case streamCode(err) == CodeRequestRejected || closeCode(err) == CodeNoError:
					refused.Add(1)
				case streamCode(err) == CodeInternalError:
					resets.Add(1)
				default:
					t.Errorf("stream %d: %+v (%v)", str.StreamID(), r, err)
				}
			})
		}
	}
	wg.Wait()
	want(t, "responses read", got.Load(), s.Responses())
	want(t, "resets read", resets.Load(), s.Resets())
	want(t, "answered or reset", s.Responses()+s.Resets(), conns*after)
	want(t, "refused", refused.Load(), conns*streams-conns*after)
	want(t, "Requests", s.Requests(), conns*after)
}

func TestCloseAfter(t *testing.T) {
	s := Start(t, Behaviour{CloseAfter: 3})
	c := dial(t, s)
	c.get("/1")
	c.get("/2")
	str, err := c.request("/3", 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = readResponse(str)
	want(t, "close code", closeCode(err), CodeInternalError)
	want(t, "Requests", s.Requests(), 3)
	want(t, "Responses", s.Responses(), 2)
}

// TestStatelessReset crashes the server on its first request: the next
// request on that connection draws a stateless reset, and a new connection
// is served by the restarted server.
func TestStatelessReset(t *testing.T) {
	s := Start(t, Behaviour{StatelessResetAfter: 1})
	c := dial(t, s)
	first, err := c.request("/crash", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !eventually(s.Restarted) {
		t.Fatal("the server did not restart")
	}
	second, err := c.request("/second", 0) // a GET this short still draws the reset
	if err != nil {
		t.Fatal(err)
	}
	for _, str := range []*quic.Stream{first, second} {
		if _, err := readResponse(str); !errors.As(err, new(*quic.StatelessResetError)) {
			t.Errorf("stream %d: %v, want a stateless reset", str.StreamID(), err)
		}
	}
	if r := dial(t, s).get("/after"); !r.ok(200, 0) {
		t.Errorf("after the restart: %+v", r)
	}
	want(t, "Connections", s.Connections(), 2)
	want(t, "Requests", s.Requests(), 2)
	want(t, "Responses", s.Responses(), 1)
	want(t, "Paths[/crash]", s.Paths()["/crash"], 1)
}

// TestAbandoned closes the connection while the server stalls a stream:
// the stream is abandoned, not cancelled.
func TestAbandoned(t *testing.T) {
	s := Start(t, Behaviour{StallEvery: 1})
	c := dial(t, s)
	if _, err := c.request("/", 0); err != nil {
		t.Fatal(err)
	}
	if !eventually(func() bool { return s.Stalled() == 1 }) {
		t.Fatal("the stream was not stalled")
	}
	_ = c.qc.CloseWithError(CodeNoError, "")
	if !eventually(func() bool { return s.Abandoned() == 1 }) {
		t.Errorf("Abandoned = %d, want 1", s.Abandoned())
	}
	want(t, "Cancelled", s.Cancelled(), 0)
}
