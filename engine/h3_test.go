package engine

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/engine/h3"
	"github.com/pummel-dev/pummel/internal/h3fixture"
	"github.com/pummel-dev/pummel/stats"
)

// h3Config is a -n run of n requests over HTTP/3 against srv, on 2
// connections of streams streams each.
func h3Config(srv *h3fixture.Server, n int64, streams int) Config {
	u, _ := url.Parse(srv.URL())
	return Config{URL: u, TLS: srv.ClientTLS(), Connections: 2, Threads: 1, Requests: n,
		Timeout: 5 * time.Second, Protocol: HTTP3, Streams: streams}
}

// TestHTTP3CountsEveryStreamOnce runs -n against HTTP/3 servers that
// misbehave, each in its own way: every request ends once, as a response
// the server agrees it sent or as one error of the expected cause, and
// the client never breaks the protocol.
func TestHTTP3CountsEveryStreamOnce(t *testing.T) {
	const n = 400
	tests := []struct {
		name    string
		b       h3fixture.Behaviour
		streams int
		timeout time.Duration
		// lossy: the server closes connections at once, so responses it
		// wrote may never arrive: pummel counts at most what it sent.
		lossy bool
		check func(t *testing.T, res stats.Result, srv *h3fixture.Server)
	}{
		{"honest, with a body", h3fixture.Behaviour{BodySize: 1000}, 16, 0, false, h3Clean},
		{"every 10th stream reset", h3fixture.Behaviour{ResetEvery: 10, ResetCode: h3fixture.CodeInternalError}, 16, 0, false,
			h3Errors(n/10, "read", "stream reset by the server (H3_INTERNAL_ERROR)")},
		{"every 10th stream rejected", h3fixture.Behaviour{RejectEvery: 10}, 16, 0, false,
			h3Errors(n/10, "read", "not processed: H3_REQUEST_REJECTED")},
		{"GOAWAY after 50 streams", h3fixture.Behaviour{GoAwayAfter: 50}, 8, 0, false, h3GoAway},
		{"GOAWAY behind a stream that never says its type", h3fixture.Behaviour{GoAwayAfter: 50, SilentUni: true}, 8, 0, false, h3GoAway},
		{"every 10th stream stalls", h3fixture.Behaviour{StallEvery: 10}, 8, 300 * time.Millisecond, false, h3Stalled},
		{"close after 30 requests", h3fixture.Behaviour{CloseAfter: 30}, 4, 0, true, h3ClosedWithStreams},
		{"stateless reset after 100 requests", h3fixture.Behaviour{StatelessResetAfter: 100}, 4, time.Second, true, h3Vanished},
		{"content-length disagrees", h3fixture.Behaviour{BodySize: 10, ContentLengthMismatch: true}, 4, 0, false,
			h3Errors(n, "read", "protocol error: content-length 15, but DATA carried 10 bytes (H3_MESSAGE_ERROR)")},
		{"an HTTP/2 frame type", h3fixture.Behaviour{ReservedFrame: true}, 4, 0, false,
			h3Errors(n, "read", "protocol error: frame type 0x2 on a request stream (H3_FRAME_UNEXPECTED)")},
		{"QPACK with a dynamic table", h3fixture.Behaviour{BadQPACK: true}, 4, 0, false,
			h3Errors(n, "read", "protocol error: the response's header section does not decode: expected Required Insert Count to be zero (QPACK_DECOMPRESSION_FAILED)")},
		{"3 streams allowed", h3fixture.Behaviour{MaxStreams: 3}, 16, 0, false, h3Capped},
		{"as many streams allowed as asked", h3fixture.Behaviour{MaxStreams: 16}, 16, 0, false, h3Clean},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := h3fixture.Start(t, tt.b)
			cfg := h3Config(srv, n, tt.streams)
			if tt.timeout > 0 {
				cfg.Timeout = tt.timeout
			}
			res := runEndingEach(t, cfg, n)
			answered := srv.Responses() + srv.Faults()
			if res.Requests != srv.Responses() && !tt.lossy || res.Requests > srv.Responses() {
				t.Errorf("%d responses, the server answered %d", res.Requests, srv.Responses())
			}
			if answered > int64(n) {
				t.Errorf("the server answered %d requests of %d: one was sent twice", answered, n)
			}
			if srv.Violations() != 0 {
				t.Errorf("the client broke the protocol %d times", srv.Violations())
			}
			if res.QUIC == nil || res.QUIC.PacketsSent == 0 {
				t.Errorf("QUIC %+v: want its packets counted", res.QUIC)
			}
			tt.check(t, res, srv)
		})
	}
}

func h3Clean(t *testing.T, res stats.Result, _ *h3fixture.Server) {
	warned := slices.ContainsFunc(res.Warnings, func(w string) bool { return !strings.Contains(w, "UDP receive buffer") }) // which this machine's size may cause
	if res.Errors.Total() != 0 || res.Reconnects != 0 || warned {
		t.Errorf("errors %v, %d reconnects, warnings %q; want none", res.ErrorCauses, res.Reconnects, res.Warnings)
	}
}

// h3Errors checks errors as errorsOf does for HTTP/2.
func h3Errors(want int64, class, cause string) func(*testing.T, stats.Result, *h3fixture.Server) {
	return func(t *testing.T, res stats.Result, _ *h3fixture.Server) { wantErrors(t, res, want, class, cause) }
}

// h3GoAway: streams the GOAWAY left unprocessed are read errors, as many
// as the server rejected, never sent again; the connection is replaced as
// a reconnect.
func h3GoAway(t *testing.T, res stats.Result, srv *h3fixture.Server) {
	rejected := res.ErrorCauses["read"]["not processed: H3_REQUEST_REJECTED"] + res.ErrorCauses["read"]["not processed: GOAWAY"]
	if rejected != res.Errors.Total() || res.Reconnects == 0 {
		t.Errorf("errors %v, %d reconnects; want only unprocessed streams, and reconnects", res.ErrorCauses, res.Reconnects)
	}
	if rejected != srv.Rejected() {
		t.Errorf("%d streams counted unprocessed, the server rejected %d", rejected, srv.Rejected())
	}
}

// h3Stalled: a stalled stream is one timeout, cancelled, and its
// connection stays.
func h3Stalled(t *testing.T, res stats.Result, srv *h3fixture.Server) {
	h3Errors(400/10, "timeout", "no response")(t, res, srv)
	if srv.Connections() != 2 {
		t.Errorf("%d connections, want the 2 first ones only", srv.Connections())
	}
	if srv.Stalled() != 400/10 {
		t.Errorf("the server stalled %d streams, want %d", srv.Stalled(), 400/10)
	}
	// Each stalled stream is cancelled; the run's last ones may be ended
	// by the client's close instead, before their cancellations leave (at
	// most the streams of both connections).
	var cancelled, abandoned int64
	wait := time.Now().Add(5 * time.Second)
	for ; cancelled+abandoned < 400/10 && time.Now().Before(wait); time.Sleep(5 * time.Millisecond) {
		cancelled, abandoned = srv.Cancelled(), srv.Abandoned()
	}
	if cancelled+abandoned != 400/10 || abandoned > 2*8 {
		t.Errorf("the server saw %d streams cancelled and %d ended by the close, want each stalled one (%d) cancelled, %d at most ended by the close",
			cancelled, abandoned, 400/10, 2*8)
	}
}

// h3ClosedWithStreams: a connection the server closes with streams open
// costs those streams, read errors, and is no reconnect (as HTTP/2's; a
// lane whose request had not left yet may see the close first and count
// one, hence at most half).
func h3ClosedWithStreams(t *testing.T, res stats.Result, srv *h3fixture.Server) {
	h3Errors(-1, "read", "connection closed: by the server (H3_INTERNAL_ERROR)")(t, res, srv)
	if replaced := srv.Connections() - 2; res.Reconnects*2 > replaced {
		t.Errorf("%d reconnects for %d connections closed with streams open", res.Reconnects, replaced)
	}
}

// h3Vanished: a server that lost its connections' state answers a
// client's next packet with a stateless reset, and its streams are lost;
// a stream whose request had left already hears nothing until its
// timeout, which its cancel then meets the reset.
func h3Vanished(t *testing.T, res stats.Result, _ *h3fixture.Server) {
	lost, timedOut := res.ErrorCauses["read"]["connection closed: stateless reset"], res.ErrorCauses["timeout"]["no response"]
	if lost+timedOut != res.Errors.Total() || res.Errors.Total() == 0 {
		t.Errorf("errors %v, want streams lost to the reset or timed out, and nothing else", res.ErrorCauses)
	}
}

// h3Capped: a stream limit below --streams holds, and the run says so once.
func h3Capped(t *testing.T, res stats.Result, srv *h3fixture.Server) {
	if res.Errors.Total() != 0 {
		t.Errorf("errors %v, want none", res.ErrorCauses)
	}
	var said int
	for _, w := range res.Warnings {
		if strings.Contains(w, "the server allows 3 streams per connection: --streams 16 was capped to it") {
			said++
		}
	}
	if said != 1 {
		t.Errorf("warnings %q, want one that says the streams were capped", res.Warnings)
	}
}

// TestHTTP3ServersThatCannotServe: a server without h3 in ALPN, and one
// that never answers a handshake, end the run with an error that says so.
func TestHTTP3ServersThatCannotServe(t *testing.T) {
	tests := []struct {
		name string
		b    h3fixture.Behaviour
		want string
	}{
		{"no h3 in ALPN", h3fixture.Behaviour{NoH3ALPN: true}, "did not negotiate HTTP/3"},
		{"no handshake", h3fixture.Behaviour{NoHandshake: true}, "cannot connect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := h3fixture.Start(t, tt.b)
			cfg := h3Config(srv, 10, 1)
			cfg.Timeout = 300 * time.Millisecond
			_, err := Run(t.Context(), cfg)
			if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Run = %v, want an unreachable target: %q", err, tt.want)
			}
		})
	}
}

// TestHTTP3Shapes: open loop, targets and a timed run that stops with
// every stream stalled all count exactly, over HTTP/3 as over TCP.
func TestHTTP3Shapes(t *testing.T) {
	t.Run("open loop", func(t *testing.T) {
		srv := h3fixture.Start(t, h3fixture.Behaviour{ResetEvery: 4})
		cfg := h3Config(srv, 0, 4)
		cfg.Rates, cfg.Duration = []float64{400}, 250*time.Millisecond
		res, err := Run(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Requests+res.Errors.Total() != 100 || res.Errors.Read != 25 || res.Requests != srv.Responses() {
			t.Errorf("%d responses, errors %v; want 75 and 25 resets of 100, as the server answered %d", res.Requests, res.ErrorCauses, srv.Responses())
		}
	})
	t.Run("targets", func(t *testing.T) {
		srv := h3fixture.Start(t, h3fixture.Behaviour{})
		cfg := h3Config(srv, 300, 4)
		a, _ := url.Parse(srv.URL() + "a")
		b, _ := url.Parse(srv.URL() + "b")
		cfg.Targets = []Target{{URL: a, Weight: 2}, {URL: b, Weight: 1}}
		res, err := Run(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		paths := srv.Paths()
		if res.Requests != 300 || paths["/a"] != 200 || paths["/b"] != 100 {
			t.Errorf("%d responses, the server saw %v; want 200 of /a and 100 of /b", res.Requests, paths)
		}
	})
	t.Run("a timed run with every stream stalled stops on time", func(t *testing.T) {
		srv := h3fixture.Start(t, h3fixture.Behaviour{StallEvery: 1})
		cfg := h3Config(srv, 0, 8)
		cfg.Duration, cfg.Timeout = 300*time.Millisecond, time.Minute
		start := time.Now()
		res, err := Run(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("the run took %v: the stop waited for streams", took)
		}
		if res.Requests != 0 || res.Errors.Total() != 0 || res.Reconnects != 0 {
			t.Errorf("%d responses, errors %v, %d reconnects: streams the stop cut short count as nothing", res.Requests, res.ErrorCauses, res.Reconnects)
		}
	})
}

// TestHTTP3ConnectionsClosedAtOnceAreRedialedWithBackoff: a server that
// closes every connection at its first request is redialed after a
// growing backoff, not in a hot loop, and each close costs its one stream
// an error.
func TestHTTP3ConnectionsClosedAtOnceAreRedialedWithBackoff(t *testing.T) {
	srv := h3fixture.Start(t, h3fixture.Behaviour{CloseAfter: 1})
	cfg := h3Config(srv, 0, 4)
	cfg.Duration = time.Second
	res, err := Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Backoffs of 10 ms doubling to 1 s leave about 7 handshakes per
	// connection in a second; a hot loop makes thousands.
	t.Logf("%d handshakes, errors %v", srv.Connections(), res.ErrorCauses)
	if n := srv.Connections(); n > 2*12 {
		t.Errorf("%d handshakes in a second on 2 connections: redialed without backoff", n)
	}
	if res.Errors.Total() == 0 || res.Requests != 0 {
		t.Errorf("%d responses, errors %v; want only errors", res.Requests, res.ErrorCauses)
	}
}

// TestHTTP3EndsCount: each way a stream ends without a response is one
// failure of its class and cause.
func TestHTTP3EndsCount(t *testing.T) {
	tests := []struct {
		end          H3End
		class, cause string
	}{
		{H3End{Kind: H3Reset, Code: h3.InternalError}, "read", "stream reset by the server (H3_INTERNAL_ERROR)"},
		{H3End{Kind: H3Reset, Code: h3.RequestRejected}, "read", "not processed: H3_REQUEST_REJECTED"},
		{H3End{Kind: H3NotProcessed}, "read", "not processed: GOAWAY"},
		{H3End{Kind: H3Lost, Cause: "stateless reset"}, "read", "connection closed: stateless reset"},
		{H3End{Kind: H3TimedOut}, "timeout", "no response"},
		{H3End{Kind: H3TimedOut, Started: true}, "timeout", "partial response"},
		{H3End{Kind: H3TimedOut, Writing: true}, "timeout", causeWriteTimeout},
		{H3End{Kind: H3Malformed, Cause: "x"}, "read", "protocol error: x"},
	}
	for _, tt := range tests {
		f := tt.end.failure()
		if f.class.String() != tt.class || f.cause != tt.cause {
			t.Errorf("%+v counts as %v %q, want %s %q", tt.end, f.class, f.cause, tt.class, tt.cause)
		}
	}
}

// TestHTTP3Scripts runs wrk scripts over HTTP/3: request()'s HTTP/1.1 text
// goes out as a stream's HEADERS, one request per stream, and response()
// sees the status, the header fields in HTTP/3's lower case and the body.
// A response() that fails counts a validation error per response, so a
// check that does not hold shows.
func TestHTTP3Scripts(t *testing.T) {
	dir := t.TempDir()
	check := func(name, cond string) string {
		path := filepath.Join(dir, name)
		body := "function response(status, headers, body)\n  if not (" + cond + ") then error(\"saw \" .. status .. \" \" .. tostring(headers[\"content-length\"]) .. \" \" .. #body) end\nend\n"
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := []struct {
		name, script string
		invalid      int64 // validation errors: the script's own
		paths        func(map[string]int64) bool
	}{
		{"request() makes each request", example("counter.lua"), 0, func(p map[string]int64) bool {
			return p["/1"] == 2 && p["/2"] == 2 && p["/"] == 0 // each of the two threads counts from 1
		}},
		{"wrk's fields alone: the request built once, with them", example("post.lua"), 0, nil},
		{"response() sees the status, headers and body", check("holds.lua", `status == 200 and headers["content-length"] == "7" and body == "xxxxxxx"`), 0, nil},
		{"a check that fails counts", check("fails.lua", `headers["Content-Length"] == "7"`), 40, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := h3fixture.Start(t, h3fixture.Behaviour{BodySize: 7})
			cfg := h3Config(srv, 40, 4)
			cfg.Threads = 2
			withScript(t, &cfg, tt.script)
			res, err := Run(t.Context(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(tt.script, "post.lua") && srv.BodyBytes() != 40*int64(len(`{"name":"pummel","count":3}`)) {
				t.Errorf("server read %d body bytes", srv.BodyBytes())
			}
			if res.Requests != 40 || srv.Requests() != 40 || res.Errors.Validation != tt.invalid || res.Errors.Total() != tt.invalid ||
				(tt.paths != nil && !tt.paths(srv.Paths())) {
				t.Errorf("%d responses, errors %+v %v, server saw %d: %v", res.Requests, res.Errors, res.ErrorCauses, srv.Requests(), srv.Paths())
			}
		})
	}
}
