package engine

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/h2fixture"
	"github.com/pummel-dev/pummel/stats"
)

// hangBound is how long a run against a hostile server may take before
// the test calls it a hang: far above every -d and --timeout used here
// (at most 2.5 s together), so it catches only a run that does not end.
const hangBound = 15 * time.Second

// lateSlack is how long after -d and --timeout a run may end: time for a
// busy machine to close connections and build the result. A run that
// waits on a server instead (a TLS close_notify to a server that does not
// read waits 5 s) ends later.
const lateSlack = 3 * time.Second

// heapBound is the most Go heap a run against a hostile server may hold
// in use at any moment. A client that bounds what it owes a server needs
// a few MB; one that queues every ack a flood calls for grows without
// end (the event loop at 0ac8d17: 744 MB of RSS after 3 s, 1.2 GB after
// 6 s, built without the race detector, which slows the growth about
// tenfold). Nothing else in the process comes near it, so passing it is
// that growth; and stopping the run there keeps the machine's memory.
const heapBound = 200 << 20

// h2Pair is a transport with a way of speaking HTTP/2: h2c, or h2 over
// TLS (the goroutine transport only: the event loop speaks h2c alone).
type h2Pair struct {
	engine string
	tls    bool
}

func (p h2Pair) String() string {
	if p.tls {
		return p.engine + "/TLS"
	}
	return p.engine + "/h2c"
}

// h2Pairs lists every transport × HTTP/2 pair this machine runs.
func h2Pairs() []h2Pair {
	var pairs []h2Pair
	for _, engine := range transports() {
		pairs = append(pairs, h2Pair{engine: engine})
		if engine == EngineGoroutine {
			pairs = append(pairs, h2Pair{engine: engine, tls: true})
		}
	}
	return pairs
}

// outcome is what a run against a hostile server came to.
type outcome struct {
	cfg     Config
	res     stats.Result
	err     error
	elapsed time.Duration // from Run's call to its return
	peak    uint64        // the most heap in use seen while it ran
}

// runHostile runs cfg against srv and returns what Run returned. It
// fails the test if Run has not returned within hangBound, or if the Go
// heap in use passes heapBound while it runs; either way it first
// cancels the run and closes the server (which ends a flood, so the
// machine keeps its memory) and waits, bounded, for Run to return, so
// that the next test does not share the machine with it.
func runHostile(t *testing.T, srv *h2fixture.Server, cfg Config) outcome {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan outcome, 1)
	start := time.Now()
	go func() {
		res, err := Run(ctx, cfg)
		done <- outcome{cfg: cfg, res: res, err: err, elapsed: time.Since(start)}
	}()
	abort := func(why string) {
		t.Helper()
		cancel()
		srv.Close()
		select {
		case <-done:
		case <-time.After(hangBound):
			why += "; cancelled, it still had not returned " + hangBound.String() + " later"
		}
		t.Fatal(why)
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	hang := time.NewTimer(hangBound)
	defer hang.Stop()
	var mem runtime.MemStats
	var peak uint64
	for {
		select {
		case o := <-done:
			o.peak = peak
			return o
		case <-tick.C:
			runtime.ReadMemStats(&mem)
			peak = max(peak, mem.HeapInuse)
			if mem.HeapInuse > heapBound {
				abort(fmt.Sprintf("%d MB of heap in use during the run, over %d MB: what the client owes the server is not bounded",
					mem.HeapInuse>>20, heapBound>>20))
			}
		case <-hang.C:
			abort(fmt.Sprintf("Run has not returned %v after it began (-d %v, -n %d, --timeout %v): a hang",
				hangBound, cfg.Duration, cfg.Requests, cfg.Timeout))
		}
	}
}

// TestHTTP2HostileServers runs pummel against HTTP/2 servers that attack
// or cheat the client (issue 35), on every transport × HTTP/2 pair: every
// run ends in time (a -d run within --timeout and lateSlack of -d) with
// its heap bounded, and each request that was sent ends once, as the
// error the server's misbehaviour makes it.
func TestHTTP2HostileServers(t *testing.T) {
	post := []byte(strings.Repeat("b", 100))
	big := make([]byte, 8<<20) // more than loopback's socket buffers hold
	tests := []struct {
		name  string
		b     h2fixture.Behaviour
		cfg   Config // the fields a case sets; the loop below adds the rest
		check func(t *testing.T, o outcome, srv *h2fixture.Server)
	}{
		{"a PING flood, server not reading", h2fixture.Behaviour{FloodPings: true},
			Config{Duration: 2 * time.Second, Timeout: 500 * time.Millisecond}, floodEnded},
		{"a SETTINGS flood, server not reading", h2fixture.Behaviour{FloodSettings: true},
			Config{Duration: 2 * time.Second, Timeout: 500 * time.Millisecond}, floodEnded},
		{"a PING flood, a request body never read", h2fixture.Behaviour{FloodPings: true},
			Config{Duration: time.Second, Timeout: 500 * time.Millisecond, Method: "POST", Body: big}, floodEnded},
		{"an endless header block", h2fixture.Behaviour{ContinuationFlood: true},
			Config{Duration: time.Second, Timeout: 500 * time.Millisecond}, headerBlockBounded},
		{"no stream allowed, -n", h2fixture.Behaviour{ZeroStreams: true},
			Config{Requests: 10, Timeout: 300 * time.Millisecond}, noStreamAllowed},
		{"SETTINGS and GOAWAY(0) in one write", h2fixture.Behaviour{SettingsThenGoAway: true},
			Config{Duration: time.Second, Timeout: 500 * time.Millisecond}, goAwayRespected},
		{"a content-length above the DATA", h2fixture.Behaviour{BodySize: 5, ContentLength: 10},
			Config{Requests: 50, Timeout: 2 * time.Second}, malformed(50)},
		{"a content-length below the DATA", h2fixture.Behaviour{BodySize: 10, ContentLength: 5},
			Config{Requests: 50, Timeout: 2 * time.Second}, malformed(50)},
		{"a response that stalls mid-body", h2fixture.Behaviour{BodySize: 10, StallMidBody: 4},
			Config{Requests: 6, Timeout: 300 * time.Millisecond}, timedOut(6, "partial response")},
		{"no window for the request body", h2fixture.Behaviour{ZeroWindow: true},
			Config{Requests: 6, Timeout: 300 * time.Millisecond, Method: "POST", Body: post}, timedOut(6, causeWriteTimeout)},
		{"a request never answered (control)", h2fixture.Behaviour{StallEvery: 1},
			Config{Requests: 6, Timeout: 300 * time.Millisecond}, timedOut(6, "no response")},
	}
	for _, pair := range h2Pairs() {
		for _, tt := range tests {
			t.Run(pair.String()+"/"+tt.name, func(t *testing.T) {
				b := tt.b
				b.TLS = pair.tls
				srv := h2fixture.Start(t, b)
				cfg := tt.cfg
				cfg.URL, _ = url.Parse(srv.URL())
				cfg.Engine, cfg.TLS, cfg.Protocol = pair.engine, srv.ClientTLS(), HTTP2
				cfg.Connections, cfg.Threads, cfg.Streams = 2, 1, 4
				o := runHostile(t, srv, cfg)
				tt.check(t, o, srv)
				if late := cfg.Duration + cfg.Timeout + lateSlack; cfg.Duration > 0 && o.elapsed > late {
					t.Errorf("the run took %v, over -d %v + --timeout %v + %v", o.elapsed.Round(time.Millisecond), cfg.Duration, cfg.Timeout, lateSlack)
				}
			})
		}
	}
}

// causes returns every error cause of res as "class: cause", with
// its count.
func causes(res stats.Result) map[string]int64 {
	all := make(map[string]int64)
	for class, byCause := range res.ErrorCauses {
		for cause, n := range byCause {
			all[class+": "+cause] += n
		}
	}
	return all
}

// floodEnded: a server that floods control frames and never reads gets
// each of its connections ended as a failure, never kept in silence: the
// streams written on it end as read errors "protocol error: …" (the
// client came to owe the server more control frames than its bound), or
// as timeouts at --timeout: where the client cannot read on while a write
// is blocked (the goroutine transport), and on the event loop when the
// flood fills the socket more slowly than --timeout passes (as under the
// race detector). No response, and the run ends in time with a bounded
// heap (runHostile).
func floodEnded(t *testing.T, o outcome, srv *h2fixture.Server) {
	if o.err != nil {
		t.Fatalf("Run: %v", o.err)
	}
	if o.res.Requests != 0 || o.res.Errors.Total() == 0 {
		t.Errorf("%d responses and errors %v: want no response and the flooded connections counted as errors",
			o.res.Requests, o.res.ErrorCauses)
	}
	for cause, n := range causes(o.res) {
		switch {
		case strings.HasPrefix(cause, "read: protocol error: "):
		case cause != "timeout: no response" && cause != "timeout: "+causeWriteTimeout:
			t.Errorf("%d errors %q: want each a read error \"protocol error: …\" or a timeout", n, cause)
		}
	}
}

// headerBlockBounded: a header block that never ends is a protocol error
// once it passes the client's bound on a header block's size: each
// stream open on the connection is a read error that says so, and none
// is a timeout (the flood is detected long before --timeout).
func headerBlockBounded(t *testing.T, o outcome, srv *h2fixture.Server) {
	if o.err != nil {
		t.Fatalf("Run: %v", o.err)
	}
	if o.res.Requests != 0 || o.res.Errors.Total() == 0 {
		t.Errorf("%d responses and errors %v: want no response, and errors", o.res.Requests, o.res.ErrorCauses)
	}
	for cause, n := range causes(o.res) {
		if !strings.HasPrefix(cause, "read: protocol error: ") || !strings.Contains(cause, "header block") {
			t.Errorf("%d errors %q: want each a read error \"protocol error: …\" naming the header block's size", n, cause)
		}
	}
}

// serverLimit finds the server's stream limit of 0 named in an error.
var serverLimit = regexp.MustCompile(`MAX_CONCURRENT_STREAMS\D{0,12}0\b`)

// noStreamAllowed: -n against a server that allows no stream cannot
// end in requests; it ends at once as an unreachable target (exit 1 in
// cmd), the error naming the server's limit, and no stream is opened.
func noStreamAllowed(t *testing.T, o outcome, srv *h2fixture.Server) {
	if !errors.Is(o.err, ErrUnreachable) || !serverLimit.MatchString(o.err.Error()) {
		t.Errorf("Run: %v (errors %v); want an ErrUnreachable naming SETTINGS_MAX_CONCURRENT_STREAMS 0",
			o.err, o.res.ErrorCauses)
	}
	if srv.Streams() != 0 {
		t.Errorf("%d streams opened against a limit of 0", srv.Streams())
	}
}

// goAwayRespected: a server that sends GOAWAY(0) with its SETTINGS gets
// no stream (RFC 9113 §6.8), its SETTINGS are not reported missing, and
// the client redials it with its back-off (10 ms doubling up to 1 s:
// about 7 dials a second per connection), not in a hot loop. Nothing was
// sent, so nothing is counted: no response and no error.
func goAwayRespected(t *testing.T, o outcome, srv *h2fixture.Server) {
	if o.err != nil {
		t.Fatalf("Run: %v", o.err)
	}
	if srv.Violations() != 0 || srv.Streams() != 0 {
		t.Errorf("%d streams opened after the server's GOAWAY(0), want none", srv.Streams())
	}
	if n := srv.Connections(); n > 40 {
		t.Errorf("%d connections in a second from 2: no back-off", n)
	}
	if o.res.Requests != 0 || o.res.Errors.Total() != 0 {
		t.Errorf("%d responses and errors %v; want neither: no request was sent", o.res.Requests, o.res.ErrorCauses)
	}
}

// malformed returns a check that each of n responses whose content-length
// disagrees with its DATA (RFC 9113 §8.1.1) is a read error saying so,
// and none a response.
func malformed(n int64) func(*testing.T, outcome, *h2fixture.Server) {
	return func(t *testing.T, o outcome, srv *h2fixture.Server) {
		if o.err != nil {
			t.Fatalf("Run: %v", o.err)
		}
		if o.res.Requests != 0 || o.res.Errors.Read != n || o.res.Errors.Total() != n {
			t.Errorf("%d responses and errors %v; want %d read errors", o.res.Requests, o.res.ErrorCauses, n)
		}
		for cause, k := range o.res.ErrorCauses["read"] {
			if !strings.Contains(cause, "content-length") {
				t.Errorf("%d read errors %q: want each to name the content-length", k, cause)
			}
		}
	}
}

// timedOut returns a check that each of n requests is a timeout with
// cause, the cause HTTP/1.1 gives the same state (classify.go): "no
// response", "partial response" once the response's HEADERS came, and
// causeWriteTimeout while flow control held the request body back.
func timedOut(n int64, cause string) func(*testing.T, outcome, *h2fixture.Server) {
	return func(t *testing.T, o outcome, srv *h2fixture.Server) {
		if o.err != nil {
			t.Fatalf("Run: %v", o.err)
		}
		if got := o.res.ErrorCauses["timeout"][cause]; got != n || o.res.Errors.Total() != n || o.res.Requests != 0 {
			t.Errorf("%d responses and errors %v; want %d timeouts %q", o.res.Requests, o.res.ErrorCauses, n, cause)
		}
		if srv.Violations() != 0 {
			t.Errorf("the client broke the protocol %d times", srv.Violations())
		}
	}
}
