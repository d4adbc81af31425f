package engine

import (
	"net/url"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

// unsolicited counts the read errors of bytes no request asked for: they
// end no request, so they are left out when requests are counted.
func unsolicited(r stats.Result) int64 { return r.ErrorCauses["read"][causeUnsolicited] }

// sent is how many requests a run ended: responses plus the errors that
// ended a request.
func sent(r stats.Result) int64 { return ended(r) - unsolicited(r) }

// TestARequestIsSentOnce holds the counting rule (docs/architecture.md) against
// servers that drop, reset or answer twice: the server receives exactly the
// requests pummel says it sent, and each of them ended once, as a response
// or as one error. A request the server read and did not answer is an
// error, never sent again.
func TestARequestIsSentOnce(t *testing.T) {
	drop := fixture.Misbehaviour{DropEvery: 2}
	reset := fixture.Misbehaviour{DropEvery: 2, DropReset: true}
	shapes := []struct {
		name string
		cfg  Config
	}{
		{"closed loop", Config{Requests: 200, Connections: 4, Threads: 2}},
		{"pipelined", Config{Requests: 200, Connections: 2, Threads: 1, Pipeline: 4}},
		{"open loop", Config{Rates: []float64{400}, Duration: 250 * time.Millisecond, Connections: 4, Threads: 2}},
	}
	servers := []struct {
		name  string
		b     fixture.Misbehaviour
		cause string // of the read errors
		// onlyOpenLoop: the misbehaviour is certain to show only in open
		// loop. A greeting that lands after the first request was written
		// reads as that request's response, and every later response
		// shifts by one; the extra one shows only when it arrives at a
		// connection with nothing outstanding. Open loop has such a moment
		// after every response; a closed loop or a pipeline writes the next
		// request at once and may reach the end of the run without one.
		onlyOpenLoop bool
	}{
		{"drops every 2nd request", drop, causeClosedBeforeResponse, false},
		{"resets every 2nd request", reset, "", false}, // closed or reset, as the RST races the FIN
		{"answers twice", fixture.Misbehaviour{Twice: true}, causeUnsolicited, false},
		{"answers before the request", fixture.Misbehaviour{Greet: true}, causeUnsolicited, true},
	}
	for _, engine := range transports() {
		for _, sh := range shapes {
			for _, sv := range servers {
				t.Run(engine+"/"+sh.name+"/"+sv.name, func(t *testing.T) {
					cfg := sh.cfg
					cfg.Engine = engine
					srv := fixture.New(t, fixture.Behaviour{Misbehave: sv.b})
					res := runLoad(t, srv, cfg)
					shows := !sv.onlyOpenLoop || len(cfg.Rates) > 0
					checkSentOnce(t, srv, cfg, res, shows, sv.cause)
				})
			}
		}
	}
}

// checkSentOnce checks that every request of a run was written once and
// ended once, and, if shows, that the server's misbehaviour shows as read
// errors of the cause given ("" for any).
func checkSentOnce(t *testing.T, srv *fixture.Server, cfg Config, res stats.Result, shows bool, cause string) {
	t.Helper()
	want := cfg.Requests
	if want == 0 {
		want = int64(cfg.Rates[0] * cfg.Duration.Seconds())
	}
	cfg.URL, _ = url.Parse(srv.URL())
	req, err := buildRequest(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sent(res) != want || res.BytesWritten != want*int64(len(req)) {
		t.Errorf("pummel ended %d requests and wrote %d bytes; want %d requests of %d bytes, each written once (responses %d, errors %+v %v)",
			sent(res), res.BytesWritten, want, len(req), res.Requests, res.Errors, res.ErrorCauses)
	}
	// A pipelining server that closes or answers twice leaves requests
	// that arrived unread: only without pipelining does its count agree.
	if cfg.Pipeline < 2 && srv.Requests() != want {
		t.Errorf("the server received %d requests, want %d", srv.Requests(), want)
	}
	if shows && res.Errors.Read == 0 {
		t.Errorf("no read errors: the server's misbehaviour was hidden (%v)", res.ErrorCauses)
	}
	if shows && cause != "" && res.ErrorCauses["read"][cause] == 0 {
		t.Errorf("causes %v, want %q among them", res.ErrorCauses, cause)
	}
	if c := res.ErrorCauses; c["write"] != nil || c["timeout"] != nil {
		t.Errorf("causes %v: only read errors expected", c)
	}
}

// TestADroppedRequestIsOneReadError pins the exact counts of one
// connection whose server drops every second request.
func TestADroppedRequestIsOneReadError(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{Misbehave: fixture.Misbehaviour{DropEvery: 2}})
			res := runLoad(t, srv, Config{Engine: engine, Requests: 100, Connections: 1, Method: "POST", Body: []byte("x=1")})
			if res.Requests != 50 || res.Errors.Read != 50 || srv.Requests() != 100 {
				t.Errorf("responses %d, read errors %d %v, server %d; want 50, 50, 100",
					res.Requests, res.Errors.Read, res.ErrorCauses, srv.Requests())
			}
			if res.Reconnects != 0 {
				t.Errorf("reconnects %d: a dropped request is an error, not a reconnect", res.Reconnects)
			}
		})
	}
}

// TestAnIdleCloseIsAReconnect: a server that closes a keep-alive
// connection while it sits idle between requests (its keep-alive timeout)
// announced the close before the next request was written: the request
// goes on a new connection, and nothing is an error.
func TestAnIdleCloseIsAReconnect(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{Misbehave: fixture.Misbehaviour{IdleClose: 5 * time.Millisecond}})
			// 5 requests a second over one connection: it sits idle 200 ms
			// between them, and the server closes it after 5 ms of that,
			// long before the next request even on a busy machine (at 100
			// ms, the race detector under load once let the close and the
			// request cross). The timeout starts after a response only: the
			// fresh connection of a reconnect is never closed before its
			// request, however slowly a busy machine writes it.
			res := runLoad(t, srv, Config{Engine: engine, Rates: []float64{5}, Duration: 2 * time.Second, Connections: 1})
			if res.Requests != 10 || res.Errors != (stats.Errors{}) || srv.Requests() != 10 {
				t.Errorf("responses %d, errors %+v %v, server %d; want 10, none, 10", res.Requests, res.Errors, res.ErrorCauses, srv.Requests())
			}
			if res.Reconnects < 8 {
				t.Errorf("reconnects %d, want about one a request", res.Reconnects)
			}
		})
	}
}
