package engine

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/h2fixture"
	"github.com/pummel-dev/pummel/stats"
	"golang.org/x/net/http2"
)

// TestHTTP2CountsEveryStreamOnce runs -n against HTTP/2 servers that
// misbehave, each in its own way: every request ends once, as a response
// the server agrees it sent or as one error of the expected class.
func TestHTTP2CountsEveryStreamOnce(t *testing.T) {
	const n = 400
	tests := []struct {
		name    string
		b       h2fixture.Behaviour
		streams int
		timeout time.Duration
		body    []byte
		check   func(t *testing.T, res stats.Result, srv *h2fixture.Server)
	}{
		{"honest, TLS", h2fixture.Behaviour{TLS: true, BodySize: 10}, 16, 0, nil, clean},
		{"every 10th stream reset", h2fixture.Behaviour{ResetEvery: 10, ResetCode: http2.ErrCodeInternal}, 16, 0, nil,
			errorsOf(n/10, "read", "stream reset by the server (INTERNAL_ERROR)")},
		{"every 10th stream refused", h2fixture.Behaviour{ResetEvery: 10, ResetCode: http2.ErrCodeRefusedStream}, 16, 0, nil,
			errorsOf(n/10, "read", "refused stream")},
		{"GOAWAY after 50 streams", h2fixture.Behaviour{GoAwayAfter: 50}, 16, 0, nil, goAwayCounted},
		{"3 concurrent streams allowed", h2fixture.Behaviour{MaxConcurrentStreams: 3, RefuseBeyond: true}, 16, 0, nil, capped},
		{"1-byte windows for the request body", h2fixture.Behaviour{Window1: true}, 4, 0, []byte(strings.Repeat("b", 100)), wholeBodies(100)},
		{"a body in 1-byte DATA frames", h2fixture.Behaviour{BodySize: 50, DataChunk: 1}, 8, 0, nil, clean},
		{"headers over CONTINUATION", h2fixture.Behaviour{Continuation: 1}, 8, 0, nil, clean},
		{"every 10th stream stalls", h2fixture.Behaviour{StallEvery: 10}, 8, 300 * time.Millisecond, nil, stalled},
		{"an answer on a stream never opened", h2fixture.Behaviour{AnswerUnopened: true}, 1, 0, nil,
			errorsOf(-1, "read", "protocol error: a HEADERS frame on stream 2147483647, which the client never opened")},
		{"a bad header block", h2fixture.Behaviour{BadHPACK: true}, 1, 0, nil, errorsOf(n, "read", "")},
		{"a window overflow", h2fixture.Behaviour{WindowOverflow: true}, 1, 0, nil, errorsOf(n, "read", "")},
		{"garbage instead of frames", h2fixture.Behaviour{BadFrame: true}, 1, 0, nil, errorsOf(n, "read", "")},
		{"close after 30 streams", h2fixture.Behaviour{CloseAfter: 30}, 4, 0, nil, endedWith("closed before responding")},
		{"reset after 30 streams", h2fixture.Behaviour{ResetConnAfter: 30}, 1, 0, nil, endedWith("reset before responding")},
	}
	for _, engine := range transports() {
		for _, tt := range tests {
			if tt.b.TLS && engine == EngineLoop {
				continue // the loop speaks h2c only
			}
			t.Run(engine+"/"+tt.name, func(t *testing.T) {
				srv := h2fixture.Start(t, tt.b)
				u, _ := url.Parse(srv.URL())
				cfg := Config{URL: u, Engine: engine, TLS: srv.ClientTLS(), Connections: 2, Threads: 1, Requests: n,
					Timeout: 5 * time.Second, Protocol: HTTP2, Streams: tt.streams, Body: tt.body}
				if tt.timeout > 0 {
					cfg.Timeout = tt.timeout
				}
				res := runEndingEach(t, cfg, n)
				// A connection that broke the protocol is ended: what the
				// server still answered on it is not read.
				if res.Requests != srv.Answered() && !tt.b.AnswerUnopened {
					t.Errorf("%d responses, the server answered %d", res.Requests, srv.Answered())
				}
				if srv.Violations() != 0 {
					t.Errorf("the client broke the protocol %d times", srv.Violations())
				}
				tt.check(t, res, srv)
			})
		}
	}
}

// runEndingEach runs cfg, n requests, and checks that each ended once:
// as a response or as one error.
func runEndingEach(t *testing.T, cfg Config, n int64) stats.Result {
	t.Helper()
	res, err := Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Requests + res.Errors.Total(); got != n {
		t.Errorf("%d responses + %d errors = %d, want %d (%v)", res.Requests, res.Errors.Total(), got, n, res.ErrorCauses)
	}
	return res
}

func clean(t *testing.T, res stats.Result, _ *h2fixture.Server) {
	if res.Errors.Total() != 0 || res.Reconnects != 0 {
		t.Errorf("errors %v, %d reconnects; want none", res.ErrorCauses, res.Reconnects)
	}
}

// errorsOf checks that want (-1: any number) errors of class were counted,
// all with cause (if set), and nothing else.
func errorsOf(want int64, class, cause string) func(*testing.T, stats.Result, *h2fixture.Server) {
	return func(t *testing.T, res stats.Result, _ *h2fixture.Server) { wantErrors(t, res, want, class, cause) }
}

// wantErrors checks that want (-1: any number) errors of class were
// counted, all with cause (if set), and nothing else.
func wantErrors(t *testing.T, res stats.Result, want int64, class, cause string) {
	t.Helper()
	causes := res.ErrorCauses[class]
	var got int64
	for _, k := range causes {
		got += k
	}
	if want >= 0 && got != want || want < 0 && got == 0 || got != res.Errors.Total() {
		t.Errorf("errors %v, want %d %s errors", res.ErrorCauses, want, class)
	}
	if cause != "" && causes[cause] != got {
		t.Errorf("causes %v, want every one %q", causes, cause)
	}
}

// goAwayCounted: streams above the GOAWAY's last id are read errors, not
// resent; the connection is replaced as a reconnect.
func goAwayCounted(t *testing.T, res stats.Result, srv *h2fixture.Server) {
	unprocessed := res.ErrorCauses["read"]["not processed: GOAWAY (NO_ERROR)"]
	if unprocessed != res.Errors.Total() || res.Reconnects == 0 {
		t.Errorf("errors %v, %d reconnects; want only unprocessed streams, and reconnects", res.ErrorCauses, res.Reconnects)
	}
	if srv.Streams() > res.Requests+unprocessed {
		t.Errorf("the server saw %d streams; %d answered and %d unprocessed", srv.Streams(), res.Requests, unprocessed)
	}
}

// capped: a server limit below --streams holds from the first stream,
// and the run says so.
func capped(t *testing.T, res stats.Result, srv *h2fixture.Server) {
	clean(t, res, srv)
	if srv.Refused() != 0 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "allows 3 streams per connection") {
		t.Errorf("%d streams refused, warnings %q; want none refused and one warning", srv.Refused(), res.Warnings)
	}
}

// wholeBodies: every request body arrives whole through the server's
// windows.
func wholeBodies(size int64) func(*testing.T, stats.Result, *h2fixture.Server) {
	return func(t *testing.T, res stats.Result, srv *h2fixture.Server) {
		clean(t, res, srv)
		for _, b := range srv.Bodies() {
			if b != size {
				t.Fatalf("a request body of %d bytes arrived, want %d", b, size)
			}
		}
	}
}

// stalled: a stalled stream is one timeout, and its connection stays.
func stalled(t *testing.T, res stats.Result, srv *h2fixture.Server) {
	errorsOf(400/10, "timeout", "no response")(t, res, srv)
	if srv.Connections() != 2 {
		t.Errorf("%d connections, want the 2 first ones only", srv.Connections())
	}
}

// endedWith: a connection the server ends with streams open ends each of them
// as a read error with cause.
func endedWith(cause string) func(*testing.T, stats.Result, *h2fixture.Server) {
	return func(t *testing.T, res stats.Result, srv *h2fixture.Server) {
		if res.Errors.Total() != res.ErrorCauses["read"][cause] {
			t.Errorf("errors %v, want only %q", res.ErrorCauses, cause)
		}
	}
}

// TestHTTP2ServerWithoutSettingsIsUnreachable: a server that never sends
// its SETTINGS gets no stream, and the run says why.
func TestHTTP2ServerWithoutSettingsIsUnreachable(t *testing.T) {
	srv := h2fixture.Start(t, h2fixture.Behaviour{NoSettings: true})
	u, _ := url.Parse(srv.URL())
	_, err := Run(t.Context(), Config{URL: u, Connections: 2, Threads: 1, Requests: 10,
		Timeout: 300 * time.Millisecond, Protocol: HTTP2})
	if err == nil || !strings.Contains(err.Error(), "the server sent no SETTINGS") || srv.Streams() != 0 {
		t.Errorf("err %v, %d streams opened; want no SETTINGS named and no stream", err, srv.Streams())
	}
}
