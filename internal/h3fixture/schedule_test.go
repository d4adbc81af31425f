package h3fixture

import (
	"testing"

	"github.com/quic-go/quic-go"
)

// outcome is what one request of a schedule test should meet.
type outcome int

const (
	answered outcome = iota
	rejected
	reset
	stalled
)

// expected returns the outcome of stream n under b, as Behaviour documents
// the precedence: rejected, then reset, then stalled.
func expected(b Behaviour, n int64) outcome {
	switch {
	case every(n, b.RejectEvery):
		return rejected
	case every(n, b.ResetEvery):
		return reset
	case every(n, b.StallEvery):
		return stalled
	}
	return answered
}

// TestSchedules sends requests one at a time on one connection, so that
// request i is stream number i, and checks each outcome and every counter.
func TestSchedules(t *testing.T) {
	cases := []struct {
		name string
		b    Behaviour
	}{
		{"RejectEvery", Behaviour{RejectEvery: 3}},
		{"ResetEvery, default code", Behaviour{ResetEvery: 4}},
		{"ResetEvery with a code", Behaviour{ResetEvery: 2, ResetCode: 0x1234}},
		{"StallEvery", Behaviour{StallEvery: 5, BodySize: 10}},
		{"all three", Behaviour{RejectEvery: 2, ResetEvery: 3, StallEvery: 5, ResetCode: CodeRequestCancelled + 1}},
	}
	const n = 30
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Start(t, tc.b)
			c := dial(t, s)
			var count [4]int64
			for i := int64(1); i <= n; i++ {
				o := expected(tc.b, i)
				count[o]++
				str, err := c.request("/", 5)
				if err != nil {
					t.Fatal(err)
				}
				checkOutcome(t, s, str, o, tc.b, count)
			}
			want(t, "Streams", s.Streams(), n)
			want(t, "Requests", s.Requests(), n-count[rejected])
			want(t, "Responses", s.Responses(), count[answered])
			want(t, "Rejected", s.Rejected(), count[rejected])
			want(t, "Resets", s.Resets(), count[reset])
			want(t, "Stalled", s.Stalled(), count[stalled])
			want(t, "Cancelled", s.Cancelled(), count[stalled])
			want(t, "BodyBytes", s.BodyBytes(), 5*(n-count[rejected]-count[reset]))
		})
	}
}

// checkOutcome reads stream str and checks it met o; a stalled stream is
// cancelled once the server counts it stalled, and the cancellation must
// be counted. count holds the outcomes so far, this one included.
func checkOutcome(t *testing.T, s *Server, str *quic.Stream, o outcome, b Behaviour, count [4]int64) {
	t.Helper()
	if o == stalled {
		if !eventually(func() bool { return s.Stalled() == count[stalled] }) {
			t.Fatalf("Stalled = %d, want %d", s.Stalled(), count[stalled])
		}
		str.CancelRead(CodeRequestCancelled)
		str.CancelWrite(CodeRequestCancelled)
		if !eventually(func() bool { return s.Cancelled() == count[stalled] }) {
			t.Fatalf("Cancelled = %d, want %d", s.Cancelled(), count[stalled])
		}
		return
	}
	r, err := readResponse(str)
	switch o {
	case answered:
		if err != nil || !r.ok(200, b.BodySize) {
			t.Fatalf("response %+v (%v), want 200", r, err)
		}
	case rejected:
		want(t, "rejection code", streamCode(err), CodeRequestRejected)
	case reset:
		want(t, "reset code", streamCode(err), int64(b.resetCode()))
	}
}
