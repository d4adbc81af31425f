package h3fixture

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestNoGoroutineLeft runs servers that leave work unfinished (a stall,
// a delay, a GOAWAY drain, a restart, a silent socket) and checks that
// once their Cleanups have run, no goroutine of the fixture or of quic-go
// is left.
func TestNoGoroutineLeft(t *testing.T) {
	cases := []struct {
		name string
		b    Behaviour
	}{
		{"stall", Behaviour{StallEvery: 1}},
		{"delay", Behaviour{Delay: time.Hour}},
		{"GOAWAY drain", Behaviour{GoAwayAfter: 1, StallEvery: 1}},
		{"restart", Behaviour{StatelessResetAfter: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Start(t, tc.b)
			c := dial(t, s)
			if _, err := c.request("/", 10); err != nil {
				t.Fatal(err)
			}
			if !eventually(func() bool { return s.Requests() == 1 }) {
				t.Fatal("request not counted")
			}
		})
	}
	t.Run("NoHandshake", func(t *testing.T) { Start(t, Behaviour{NoHandshake: true}) })
	var left string
	if !eventually(func() bool { left = fixtureGoroutines(); return left == "" }) {
		t.Errorf("goroutines left after every Cleanup:\n%s", left)
	}
}

// fixtureGoroutines returns the stacks of goroutines running code of
// quic-go or of the fixture's types.
func fixtureGoroutines() string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for g := range bytes.SplitSeq(buf, []byte("\n\n")) {
		if s := string(g); strings.Contains(s, "quic-go/quic-go") || strings.Contains(s, "h3fixture.(*") {
			out = append(out, s)
		}
	}
	return strings.Join(out, "\n\n")
}
