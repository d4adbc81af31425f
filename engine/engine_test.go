package engine

import (
	"bytes"
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/internal/parse"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// runLoad runs the engine against srv with cfg's shape, filling in the URL and
// safe bounds, and fails the test on a run error.
func runLoad(t *testing.T, srv *fixture.Server, cfg Config) stats.Result {
	t.Helper()
	var err error
	if cfg.URL, err = url.Parse(srv.URL()); err != nil {
		t.Fatal(err)
	}
	cfg.Connections = max(cfg.Connections, 1)
	cfg.Threads = max(cfg.Threads, 1)
	if cfg.Duration == 0 {
		cfg.Duration = 20 * time.Second // a safety net: -n runs end long before
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 5 * time.Second
	}
	res, err := Run(t.Context(), cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

// ended is every request that ended: responses plus socket errors.
func ended(r stats.Result) int64 { return r.Requests + r.Errors.Socket() }

func TestExactCountsAgreeWithTheServer(t *testing.T) {
	for _, tc := range []struct{ n, c, t int }{{1, 1, 1}, {1000, 1, 1}, {1000, 7, 3}, {997, 64, 2}, {5, 50, 2}} {
		srv := fixture.New(t, fixture.Behaviour{})
		res := runLoad(t, srv, Config{Requests: int64(tc.n), Connections: tc.c, Threads: tc.t})
		if res.Requests != int64(tc.n) || srv.Requests() != int64(tc.n) || res.Errors != (stats.Errors{}) {
			t.Errorf("-n %d -c %d -t %d: pummel counted %d (errors %+v), the server %d",
				tc.n, tc.c, tc.t, res.Requests, res.Errors, srv.Requests())
		}
		if res.Status["200"] != int64(tc.n) {
			t.Errorf("-n %d: status %v", tc.n, res.Status)
		}
	}
}

func TestLatencyOfAKnownDelay(t *testing.T) {
	const delay = 50 * time.Millisecond
	srv := fixture.New(t, fixture.Behaviour{Delay: delay})
	res := runLoad(t, srv, Config{Requests: 20, Connections: 2})
	lat := res.Latency
	if lat.Min < float64(delay.Microseconds()) {
		t.Errorf("min latency %.0fus is below the server's delay of %v", lat.Min, delay)
	}
	// Each connection's requests follow one another, so their latencies
	// add up to no more than the run: 20 over 2 connections sum to at
	// most twice its length, and the 11 at or above the median to no more
	// than that. The bound holds however slow the machine, and a latency
	// timed from anything earlier than the request's write breaks it.
	if most := 2 * res.DurationS * 1e6 / 11; lat.P50 > most {
		t.Errorf("median latency %.0fus in a %.3fs run of 10 requests a connection: above the %.0fus their sum allows", lat.P50, res.DurationS, most)
	}
	if h, err := stats.DecodeHistogram(res.LatencyHistogram); err != nil || h.TotalCount() != 20 {
		t.Errorf("histogram holds %v values (%v), want 20", h.TotalCount(), err)
	}
}

func TestStatusMix(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{Status: []int{200, 200, 404, 500}})
	res := runLoad(t, srv, Config{Requests: 400, Connections: 4, Threads: 2})
	want := map[string]int64{"200": 200, "404": 100, "500": 100}
	for code, n := range want {
		if res.Status[code] != n {
			t.Errorf("status %s: %d, want %d (all: %v)", code, res.Status[code], n, res.Status)
		}
	}
	if res.Errors.Status != 200 || res.Requests != 400 {
		t.Errorf("status errors %d of %d responses, want 200 of 400", res.Errors.Status, res.Requests)
	}
}

func TestBodies(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name      string
		behaviour fixture.Behaviour
		minBytes  int64 // per response
	}{
		{"1 MiB with Content-Length", fixture.Behaviour{BodySize: mib}, mib},
		{"1 MiB chunked", fixture.Behaviour{BodySize: mib, Chunked: true}, mib},
		{"close-delimited", fixture.Behaviour{BodySize: 5000, CloseDelimited: true}, 5000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fixture.New(t, tt.behaviour)
			res := runLoad(t, srv, Config{Requests: 20, Connections: 2})
			if res.Requests != 20 || res.Errors != (stats.Errors{}) {
				t.Errorf("requests %d, errors %+v, causes %v: want 20 clean", res.Requests, res.Errors, res.ErrorCauses)
			}
			if res.BytesRead < 20*tt.minBytes {
				t.Errorf("read %d bytes, want at least %d", res.BytesRead, 20*tt.minBytes)
			}
		})
	}
}

func TestServerClosesAreReconnectsNotErrors(t *testing.T) {
	tests := []struct {
		name      string
		behaviour fixture.Behaviour
	}{
		{"announced with Connection: close", fixture.Behaviour{CloseAfter: 3}},
		{"close-delimited bodies", fixture.Behaviour{CloseDelimited: true}},
	}
	for _, engine := range transports() {
		for _, tt := range tests {
			t.Run(engine+"/"+tt.name, func(t *testing.T) {
				srv := fixture.New(t, tt.behaviour)
				res := runLoad(t, srv, Config{Engine: engine, Requests: 30, Connections: 1})
				if res.Requests != 30 || res.Errors != (stats.Errors{}) {
					t.Errorf("requests %d, errors %+v %v: want 30 and none", res.Requests, res.Errors, res.ErrorCauses)
				}
				if res.Reconnects < 9 {
					t.Errorf("reconnects %d, want at least 9", res.Reconnects)
				}
				if srv.Requests() != 30 {
					t.Errorf("the server received %d requests, want 30", srv.Requests())
				}
			})
		}
	}
}

// A server that closes a connection right after a response, without
// saying so, races the next request, which a closed-loop connection
// writes at once. When the close arrived first it is a reconnect; when the
// request went first it went unanswered, a read error: never sent again.
func TestASilentCloseAfterAResponseIsCountedNotHidden(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{CloseAfterSilently: 3})
			res := runLoad(t, srv, Config{Engine: engine, Requests: 30, Connections: 1})
			if ended(res) != 30 || srv.Requests() != res.Requests {
				t.Errorf("%d requests ended (responses %d, errors %+v), the server answered %d; want 30, and as many as the responses",
					ended(res), res.Requests, res.Errors, srv.Requests())
			}
			if res.Errors.Read != res.ErrorCauses["read"][causeClosedBeforeResponse] || res.Errors.Read+res.Reconnects < 7 {
				t.Errorf("read errors %d %v, reconnects %d: want a close every 3 responses, counted either way",
					res.Errors.Read, res.ErrorCauses, res.Reconnects)
			}
		})
	}
}

func TestFaultsAreCountedInTheirClass(t *testing.T) {
	tests := []struct {
		name      string
		behaviour fixture.Behaviour
		conns     int
		responses int64
		class     record.ErrorClass
		cause     string // a prefix of every cause
	}{
		{"reset mid-response", fixture.Behaviour{ResetMidResponse: true}, 4, 0, record.Read, "reset "},
		{"reset after two responses", fixture.Behaviour{ResetAfterResponses: 2}, 1, 8, record.Read, "reset "},
		{"close mid-body", fixture.Behaviour{CloseMidBody: true}, 4, 0, record.Read, causeClosedMidResponse},
		{"close mid-head", fixture.Behaviour{CloseMidHead: true}, 4, 0, record.Read, causeClosedMidResponse},
		{"garbage", fixture.Behaviour{Garbage: true}, 4, 0, record.Read, "malformed response"},
		{"closed before any response", fixture.Behaviour{RefuseAfterAccept: true}, 4, 0, record.Read, ""},
	}
	for _, engine := range transports() {
		for _, tt := range tests {
			t.Run(engine+"/"+tt.name, func(t *testing.T) {
				srv := fixture.New(t, tt.behaviour)
				res := runLoad(t, srv, Config{Engine: engine, Requests: 12, Connections: tt.conns})
				if ended(res) != 12 {
					t.Errorf("%d requests ended, want exactly 12 (responses %d, errors %+v)", ended(res), res.Requests, res.Errors)
				}
				if res.Requests != tt.responses {
					t.Errorf("responses %d, want %d", res.Requests, tt.responses)
				}
				if got := res.Errors.ByClass(tt.class); got != 12-tt.responses {
					t.Errorf("%v errors %d, want %d (all: %+v, causes %v)", tt.class, got, 12-tt.responses, res.Errors, res.ErrorCauses)
				}
				for cause := range res.ErrorCauses[tt.class.String()] {
					if !strings.HasPrefix(cause, tt.cause) {
						t.Errorf("cause %q, want %q", cause, tt.cause)
					}
				}
			})
		}
	}
}

func TestStalledServerTimesOutAndTheRunEndsOnTime(t *testing.T) {
	for _, b := range []fixture.Behaviour{{Stall: true}, {StallAfter: 5}} {
		srv := fixture.New(t, b)
		const d, timeout = 600 * time.Millisecond, 200 * time.Millisecond
		began := time.Now()
		res := runLoad(t, srv, Config{Duration: d, Timeout: timeout, Connections: 3})
		took := time.Since(began)
		if res.Errors.Timeout == 0 {
			t.Errorf("%+v: no timeouts counted (errors %+v)", b, res.Errors)
		}
		if took > d+timeout+2*time.Second {
			t.Errorf("%+v: a %v run took %v", b, d, took)
		}
		if res.Requests != int64(b.StallAfter) {
			t.Errorf("%+v: %d responses, want %d", b, res.Requests, b.StallAfter)
		}
	}
}

// A server that sends part of a head and then nothing times out as a
// partial response on both transports: the server had begun to answer.
func TestTimeoutMidHeadIsAPartialResponse(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{StallMidHead: true})
			res := runLoad(t, srv, Config{Engine: engine, Requests: 4, Connections: 2, Timeout: 500 * time.Millisecond}) // the partial head arrives well within it on a busy machine
			if got := res.ErrorCauses["timeout"]["partial response"]; got != 4 || res.Errors.Total() != 4 {
				t.Errorf("errors %v, want 4 timeouts as partial responses", res.ErrorCauses)
			}
		})
	}
}

func TestUnreachableTarget(t *testing.T) {
	u := &url.URL{Scheme: "http", Host: fixture.FreeAddr(t), Path: "/"}
	_, err := Run(t.Context(), Config{URL: u, Connections: 2, Threads: 1, Duration: time.Second, Timeout: time.Second})
	if !errors.Is(err, ErrUnreachable) {
		t.Errorf("Run = %v, want ErrUnreachable", err)
	}
}

func TestValidation(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{Status: []int{200, 201}, Body: []byte("hello world")})
	res := runLoad(t, srv, Config{Requests: 10, Checks: Checks{Status: []parse.StatusRange{{Lo: 200, Hi: 200}}, Body: []byte("world")}})
	if res.Errors.Validation != 5 || res.Requests != 10 {
		t.Errorf("validation errors %d of %d responses, want 5 of 10", res.Errors.Validation, res.Requests)
	}
	res = runLoad(t, srv, Config{Requests: 10, Checks: Checks{Body: []byte("absent")}})
	if res.Errors.Validation != 10 {
		t.Errorf("validation errors %d, want 10 (body check)", res.Errors.Validation)
	}
}

func TestNoKeepAliveOpensAConnectionPerRequest(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	res := runLoad(t, srv, Config{Requests: 25, Connections: 2, NoKeepAlive: true})
	if res.Requests != 25 || res.Errors != (stats.Errors{}) || res.Reconnects != 0 {
		t.Errorf("requests %d, errors %+v, reconnects %d", res.Requests, res.Errors, res.Reconnects)
	}
	if got := srv.Connections(); got < 25 {
		t.Errorf("server saw %d connections, want at least 25", got)
	}
}

func TestCancelReturnsPartialResults(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	u, _ := url.Parse(srv.URL())
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	res, err := Run(ctx, Config{URL: u, Connections: 2, Threads: 1, Duration: time.Minute, Timeout: time.Second})
	if err != nil || !res.Interrupted || res.Requests == 0 {
		t.Errorf("err %v, interrupted %v, requests %d: want partial results", err, res.Interrupted, res.Requests)
	}
}

func TestBytesWrittenMatchRequests(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	cfg := Config{Requests: 100, Connections: 3, Method: "POST", Body: []byte("0123456789")}
	res := runLoad(t, srv, cfg)
	cfg.URL, _ = url.Parse(srv.URL())
	req, _ := buildRequest(&cfg)
	if res.BytesWritten != 100*int64(len(req)) {
		t.Errorf("wrote %d bytes, want 100 × %d", res.BytesWritten, len(req))
	}
	if got := string(srv.LastRequest()); got != string(req) {
		t.Errorf("server received %q, want %q", got, req)
	}
}

func TestExpectBodyFindsTextAtTheEndOfALargeBody(t *testing.T) {
	body := append(bytes.Repeat([]byte("x"), 300_000), "needle"...)
	for _, b := range []fixture.Behaviour{{Body: body}, {Body: body, Chunked: true}, {Body: body, CloseDelimited: true}} {
		srv := fixture.New(t, b)
		res := runLoad(t, srv, Config{Requests: 6, Connections: 2, Checks: Checks{Body: []byte("needle")}})
		if res.Requests != 6 || res.Errors != (stats.Errors{}) {
			t.Errorf("%v: requests %d, errors %+v %v", b.Chunked, res.Requests, res.Errors, res.ErrorCauses)
		}
	}
}
