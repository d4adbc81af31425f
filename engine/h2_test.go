package engine

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// startH2C serves h on a loopback h2c (prior knowledge) listener and
// counts the requests it answers.
func startH2C(t *testing.T, h http.HandlerFunc) (*url.URL, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	serveH2C(t, ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1); h(w, r) }))
	u, _ := url.Parse("http://" + ln.Addr().String() + "/")
	return u, &n
}

// serveH2C serves h on ln in HTTP/2 with prior knowledge only, with
// net/http's server, until the test ends.
func serveH2C(t *testing.T, ln net.Listener, h http.Handler) {
	t.Helper()
	p := new(http.Protocols)
	p.SetUnencryptedHTTP2(true)
	srv := &http.Server{Handler: h, Protocols: p, HTTP2: &http.HTTP2Config{MaxConcurrentStreams: 250}}
	go srv.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.Close() })
}

func TestHTTP2ExactCount(t *testing.T) {
	for _, engine := range transports() {
		for _, streams := range []int{1, 16, 100} {
			u, served := startH2C(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
			cfg := Config{URL: u, Engine: engine, Connections: 4, Threads: 2, Requests: 3000, Timeout: 5 * time.Second,
				Protocol: HTTP2, Streams: streams, Checks: Checks{Body: []byte("ok")}}
			res, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if res.Requests != 3000 || served.Load() != 3000 || res.Errors.Total() != 0 {
				t.Errorf("%s, --streams %d: %d requests, server saw %d, errors %v", engine, streams, res.Requests, served.Load(), res.Errors)
			}
		}
	}
}

// startH2TLS serves h over TLS, offering h2 in ALPN when h2 is set, and
// returns a TLS config that trusts it.
func startH2TLS(t *testing.T, h2 bool, h http.HandlerFunc) (*url.URL, *tls.Config) {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	srv.EnableHTTP2 = h2
	srv.StartTLS()
	t.Cleanup(srv.Close)
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	u, _ := url.Parse(srv.URL + "/")
	return u, &tls.Config{RootCAs: roots}
}

func TestHTTP2OverTLS(t *testing.T) {
	var served atomic.Int64
	u, tc := startH2TLS(t, true, func(w http.ResponseWriter, r *http.Request) {
		if r.ProtoMajor != 2 {
			w.WriteHeader(http.StatusHTTPVersionNotSupported)
			return
		}
		served.Add(1)
	})
	for _, streams := range []int{1, 16} {
		served.Store(0)
		res, err := Run(t.Context(), Config{URL: u, TLS: tc, Connections: 3, Threads: 1, Requests: 1000,
			Timeout: 5 * time.Second, Protocol: HTTP2, Streams: streams})
		if err != nil {
			t.Fatal(err)
		}
		if res.Requests != 1000 || served.Load() != 1000 || res.Errors.Total() != 0 || res.Status["200"] != 1000 {
			t.Errorf("--streams %d: %d requests, server saw %d, status %v, errors %+v", streams, res.Requests, served.Load(), res.Status, res.Errors)
		}
	}
}

func TestHTTP2RefusedInALPNEndsTheRun(t *testing.T) {
	u, tc := startH2TLS(t, false, func(http.ResponseWriter, *http.Request) {})
	_, err := Run(t.Context(), Config{URL: u, TLS: tc, Connections: 2, Threads: 1, Requests: 10,
		Timeout: 5 * time.Second, Protocol: HTTP2})
	var nh *NoHTTP2Error
	if !errors.As(err, &nh) || err.Error() != "the server did not negotiate HTTP/2 (ALPN: http/1.1)" {
		t.Fatalf("err %v, want the server did not negotiate HTTP/2 (ALPN: http/1.1)", err)
	}
}

// TestHTTP2OpenLoopSendsTheSchedule: every request of an open-loop
// schedule goes out once over HTTP/2. The rate is one a busy machine keeps
// under -race (net/http's server is the slower end): a client more than
// a second (a quarter of --timeout, at most 1 s) behind at -d sends no
// more, and at 2,000/s a first test run once sent 1,303 of 2,000.
func TestHTTP2OpenLoopSendsTheSchedule(t *testing.T) {
	for _, engine := range transports() {
		u, served := startH2C(t, func(http.ResponseWriter, *http.Request) {})
		res, err := Run(t.Context(), Config{URL: u, Engine: engine, Connections: 2, Threads: 1, Rates: []float64{500}, Duration: time.Second,
			Timeout: 4 * time.Second, Protocol: HTTP2, Streams: 8})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Requests + res.Errors.Total(); got != 500 || served.Load() != res.Requests {
			t.Errorf("%s: %d requests and %d errors, server saw %d; want 500 sent", engine, res.Requests, res.Errors.Total(), served.Load())
		}
	}
}

// TestHTTP2TimeoutCancelsTheStreamAndKeepsTheConnection: a stream past
// --timeout is one timeout, cancelled with RST_STREAM; the other streams
// of its connection go on, and no connection is reopened.
func TestHTTP2TimeoutCancelsTheStreamAndKeepsTheConnection(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) { checkHTTP2Timeout(t, engine) })
	}
}

func checkHTTP2Timeout(t *testing.T, engine string) {
	var n, cancelled atomic.Int64
	u, _ := startH2C(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%10 == 0 {
			<-r.Context().Done() // the client's RST_STREAM(CANCEL) ends it
			cancelled.Add(1)
		}
	})
	res, err := Run(t.Context(), Config{URL: u, Engine: engine, Connections: 2, Threads: 1, Requests: 200,
		Timeout: 200 * time.Millisecond, Protocol: HTTP2, Streams: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 180 || res.Errors.Timeout != 20 || res.Errors.Total() != 20 {
		t.Errorf("%d responses, errors %+v; want 180 and 20 timeouts", res.Requests, res.Errors)
	}
	if res.Connect.Count != 2 || res.Reconnects != 0 {
		t.Errorf("%d connects, %d reconnects; want the 2 first ones only", res.Connect.Count, res.Reconnects)
	}
	for deadline := time.Now().Add(5 * time.Second); cancelled.Load() < 20 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if cancelled.Load() != 20 {
		t.Errorf("the server saw %d streams cancelled, want 20", cancelled.Load())
	}
}

// TestHTTP2ServerResetIsAReadError: a handler that aborts makes the
// server reset its stream; each is one read error, the rest responses.
func TestHTTP2ServerResetIsAReadError(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) { checkHTTP2Reset(t, engine) })
	}
}

func checkHTTP2Reset(t *testing.T, engine string) {
	var n atomic.Int64
	u, _ := startH2C(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%10 == 0 {
			panic(http.ErrAbortHandler)
		}
	})
	res, err := Run(t.Context(), Config{URL: u, Engine: engine, Connections: 2, Threads: 1, Requests: 500,
		Timeout: 5 * time.Second, Protocol: HTTP2, Streams: 16})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 450 || res.Errors.Read != 50 || res.Errors.Total() != 50 {
		t.Errorf("%d responses, errors %+v, causes %v; want 450 and 50 read errors", res.Requests, res.Errors, res.ErrorCauses)
	}
}

// TestHTTP2Scripts runs the example scripts over h2c: request()'s HTTP/1.1
// text goes out as HEADERS and DATA, response() sees the status, the
// headers (in HTTP/2's lower case) and the body, delay() paces each stream.
func TestHTTP2Scripts(t *testing.T) {
	tests := []struct {
		file  string
		check func(got []seen) bool
	}{
		{"post.lua", func(got []seen) bool {
			return got[0].method == "POST" && got[0].contentType == "application/json" && strings.Contains(got[0].body, `"pummel"`)
		}},
		{"counter.lua", func(got []seen) bool { return got[0].path == "/1" && got[len(got)-1].path != "/1" }},
		{"auth.lua", func(got []seen) bool {
			return got[0].path == "/login" && got[0].body == "user:secret" && got[len(got)-1].auth == "Bearer t0k3n"
		}},
		{"delay.lua", func(got []seen) bool { return len(got) == 20 }},
	}
	for _, tt := range tests {
		h, recorded := recordingHandler()
		u, _ := startH2C(t, h)
		out := runScript(t, Config{URL: u, Requests: 20, Connections: 1, Threads: 1, Protocol: HTTP2, Streams: 1}, tt.file)
		if got := recorded(); out.responses != 20 || len(got) != 20 || !tt.check(got) {
			t.Errorf("%s: %d responses, server saw %+v", tt.file, out.responses, got)
		}
	}
}

// TestHTTP2Targets sends a list of targets over HTTP/2: each stream takes
// its target in the weights' interleaving, counted per target.
func TestHTTP2Targets(t *testing.T) {
	for _, engine := range transports() {
		var mu sync.Mutex
		paths := map[string]int64{}
		u, _ := startH2C(t, func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			paths[r.URL.Path]++
			mu.Unlock()
		})
		var targets []Target
		for i, w := range []int{1, 3, 6} {
			tu := *u
			tu.Path = fmt.Sprintf("/t%d", i)
			targets = append(targets, Target{URL: &tu, Weight: w})
		}
		res, err := Run(t.Context(), Config{URL: u, Engine: engine, Connections: 2, Threads: 1, Requests: 1000,
			Timeout: 5 * time.Second, Protocol: HTTP2, Streams: 8, Targets: targets})
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		if paths["/t0"] != 100 || paths["/t1"] != 300 || paths["/t2"] != 600 || len(res.Targets) != 3 || res.Targets[2].Requests != 600 {
			t.Errorf("%s: server saw %v, result's targets %+v", engine, paths, res.Targets)
		}
		mu.Unlock()
	}
}

// TestHTTP2OverAUnixSocket speaks h2c over --unix, on both transports.
func TestHTTP2OverAUnixSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h2.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	var served atomic.Int64
	serveH2C(t, ln, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { served.Add(1) }))
	u, _ := url.Parse("http://localhost/")
	for _, engine := range transports() {
		served.Store(0)
		res, err := Run(t.Context(), Config{URL: u, UnixSocket: path, Engine: engine, Connections: 2, Threads: 1, Requests: 200,
			Timeout: 5 * time.Second, Protocol: HTTP2, Streams: 4})
		if err != nil || res.Requests != 200 || served.Load() != 200 {
			t.Errorf("%s: %v, %d responses, server saw %d", engine, err, res.Requests, served.Load())
		}
	}
}

// TestHTTP2ScriptSeesLowerCaseHeaders: response() gets a response's
// header fields as HTTP/2 sends them, in lower case.
func TestHTTP2ScriptSeesLowerCaseHeaders(t *testing.T) {
	u, _ := startH2C(t, func(w http.ResponseWriter, _ *http.Request) { w.Header().Set("X-Token", "t0k3n") })
	cfg := Config{URL: u, Requests: 20, Connections: 1, Threads: 1, Timeout: 5 * time.Second, Protocol: HTTP2}
	withScript(t, &cfg, luaFile(t, "case.lua", `function response(status, headers, body)
  if headers["x-token"] ~= "t0k3n" or headers["X-Token"] ~= nil then error("headers not in lower case") end
end
`))
	res, err := Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 20 || res.Errors.Total() != 0 {
		t.Errorf("%d responses, errors %v: want 20 and none", res.Requests, res.ErrorCauses)
	}
}
