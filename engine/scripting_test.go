package engine

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/engine/script"
	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

// seen is a request as the recording server received it.
type seen struct {
	method, path, auth, contentType, body string
}

// recordingServer answers 200 and records every request; /login answers
// with an X-Auth-Token header.
func recordingServer(t *testing.T) (*url.URL, func() []seen) {
	t.Helper()
	h, got := recordingHandler()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL + "/")
	return u, got
}

// recordingHandler is recordingServer's handler, and what it recorded so
// far.
func recordingHandler() (http.HandlerFunc, func() []seen) {
	var mu sync.Mutex
	var got []seen
	h := func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, seen{r.Method, r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type"), string(body)})
		mu.Unlock()
		if r.URL.Path == "/login" {
			w.Header().Set("X-Auth-Token", "t0k3n")
		}
	}
	return h, func() []seen { mu.Lock(); defer mu.Unlock(); return append([]seen(nil), got...) }
}

// example is the path of an example script in scripts/lua.
func example(name string) string { return filepath.Join("..", "scripts", "lua", name) }

// withScript loads the script at path into cfg.Script, closed when the
// test ends; what it prints is discarded.
func withScript(t *testing.T, cfg *Config, path string, args ...string) *script.Program {
	t.Helper()
	return printingScript(t, cfg, io.Discard, path, args...)
}

// printingScript is withScript with what the script prints going to out.
func printingScript(t *testing.T, cfg *Config, out io.Writer, path string, args ...string) *script.Program {
	t.Helper()
	p, err := script.Load(t.Context(), path, script.Options{Args: args, Target: targetOf(cfg), Output: out})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	cfg.Script = p
	return p
}

// targetOf is what a script sees of cfg's request, as the command line
// shows it (cmd/pummel's scriptTarget).
func targetOf(cfg *Config) script.Target {
	var headers []script.Header
	for _, h := range cfg.Headers {
		headers = append(headers, script.Header{Name: h.Name, Value: h.Value})
	}
	t := script.NewTarget(cfg.URL, cfg.method(), headers, cfg.Body)
	t.ShardIndex, t.ShardCount = cfg.Shard.Index, cfg.Shard.Count
	return t
}

type runOutcome struct {
	responses, ended int64
	done             string
}

// runScript runs cfg with the example script name and its args, then done().
func runScript(t *testing.T, cfg Config, name string, args ...string) runOutcome {
	t.Helper()
	cfg.Threads, cfg.Timeout = max(cfg.Threads, 1), 5*time.Second
	cfg.Connections = max(cfg.Connections, cfg.Threads)
	if cfg.Duration == 0 && cfg.Requests == 0 {
		cfg.Duration = 10 * time.Second
	}
	var out bytes.Buffer
	p := printingScript(t, &cfg, &out, example(name), args...)
	res, err := Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Finish(res); err != nil {
		t.Fatal(err)
	}
	return runOutcome{res.Requests, ended(res), out.String()}
}

func TestScripts(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		args  []string
		cfg   Config
		check func(t *testing.T, got []seen)
	}{
		{"wrk fields only: POST body, built once", "post.lua", nil, Config{Requests: 20, Connections: 2}, func(t *testing.T, got []seen) {
			for _, s := range got {
				if s.method != "POST" || s.contentType != "application/json" || !strings.Contains(s.body, `"pummel"`) {
					t.Fatalf("server saw %+v", s)
				}
			}
		}},
		{"a new path per request", "counter.lua", nil, Config{Requests: 30, Connections: 3, Threads: 1}, func(t *testing.T, got []seen) {
			paths := map[string]bool{}
			for _, s := range got {
				paths[s.path] = true
			}
			if len(paths) != 30 || !paths["/1"] || !paths["/30"] {
				t.Errorf("paths %v: want /1 … /30 once each", paths)
			}
		}},
		{"pipelined requests counted exactly", "pipeline.lua", []string{"4"}, Config{Requests: 102, Connections: 2, Threads: 2}, nil},
		{"token from a response header", "auth.lua", []string{"me:pw"}, Config{Requests: 40, Connections: 1}, func(t *testing.T, got []seen) {
			if got[0].path != "/login" || got[0].body != "me:pw" || got[len(got)-1].auth != "Bearer t0k3n" {
				t.Errorf("first %+v, last %+v: want a login, then the token", got[0], got[len(got)-1])
			}
		}},
		{"random delay", "delay.lua", nil, Config{Requests: 20, Connections: 2}, nil},
		{"thread setup, get and set", "setup.lua", nil, Config{Requests: 20, Connections: 2, Threads: 2}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, got := recordingServer(t)
			tt.cfg.URL = u
			run := runScript(t, tt.cfg, tt.file, tt.args...)
			if n := int64(len(got())); run.responses != tt.cfg.Requests || n != tt.cfg.Requests {
				t.Errorf("responses %d, server saw %d, want %d", run.responses, n, tt.cfg.Requests)
			}
			if tt.check != nil {
				tt.check(t, got())
			}
		})
	}
}

func TestScriptStopAndDone(t *testing.T) {
	u, _ := recordingServer(t)
	began := time.Now()
	run := runScript(t, Config{URL: u, Duration: 20 * time.Second, Connections: 2, Threads: 2}, "stop.lua", "10")
	// Each thread stops after 10 responses; a request in flight may finish.
	if run.responses < 20 || run.responses > 22 || time.Since(began) > 10*time.Second {
		t.Errorf("%d responses in %v: want about 20, and an early end", run.responses, time.Since(began))
	}
	csv := filepath.Join(t.TempDir(), "latency.csv")
	t.Setenv("PUMMEL_CSV", csv)
	runScript(t, Config{URL: u, Requests: 50, Connections: 2}, "report.lua")
	if b, err := os.ReadFile(csv); err != nil || !regexp.MustCompile(`^percentile,latency_us\n50,\d+\n`).Match(b) {
		t.Errorf("done() wrote %q (%v), want a CSV of percentiles", b, err)
	}
}

func TestScriptErrorsAreCountedNotFatal(t *testing.T) {
	path := luaFile(t, "broken.lua", "local n = 0\nfunction request()\n  n = n + 1\n  if n % 2 == 0 then error('boom') end\n  return wrk.format()\nend\n")
	u, _ := recordingServer(t)
	cfg := Config{URL: u, Requests: 10, Connections: 1, Threads: 1, Timeout: 5 * time.Second}
	withScript(t, &cfg, path)
	res, err := Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 5 || res.Errors.Validation != 5 || !strings.Contains(strings.Join(keys(res.ErrorCauses["validation"]), ""), "broken.lua:4") {
		t.Errorf("responses %d, validation errors %d %v: want 5 and 5 naming broken.lua:4", res.Requests, res.Errors.Validation, res.ErrorCauses)
	}
}

// luaFile writes a script named name with src and returns its path.
func luaFile(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func keys(m map[string]int64) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestScriptAndPipelineRefused(t *testing.T) {
	u, _ := recordingServer(t)
	cfg := Config{URL: u, Requests: 10, Pipeline: 4, Connections: 1, Threads: 1, Timeout: time.Second}
	withScript(t, &cfg, example("counter.lua"))
	if _, err := Run(t.Context(), cfg); err == nil || !strings.Contains(err.Error(), "pipeline") {
		t.Errorf("Run = %v, want a pipeline error", err)
	}
}

// TestScriptChunkedRequestsCountedOnce sends requests with chunked bodies
// (an extension, a trailer) from request(), one or two at a time: each is
// one request to the server and one response to pummel.
func TestScriptChunkedRequestsCountedOnce(t *testing.T) {
	const chunked = `POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n` +
		`5;ext=1\r\nhello\r\n0\r\nX-Trailer: t\r\n\r\n`
	for _, engine := range transports() {
		for _, perCall := range []int{1, 2} {
			t.Run(engine+"/"+strconv.Itoa(perCall)+" per request()", func(t *testing.T) {
				path := luaFile(t, "chunked.lua", "function request() return string.rep(\""+chunked+"\", "+strconv.Itoa(perCall)+") end\n")
				u, got := recordingServer(t)
				cfg := Config{Engine: engine, URL: u, Requests: 20, Connections: 2, Threads: 1, Timeout: 5 * time.Second}
				withScript(t, &cfg, path)
				res, err := Run(t.Context(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				seen := got()
				if res.Requests != 20 || len(seen) != 20 || res.Errors != (stats.Errors{}) {
					t.Errorf("responses %d, server saw %d, errors %+v: want 20, 20, none", res.Requests, len(seen), res.Errors)
				}
				for _, s := range seen {
					if s.body != "hello" {
						t.Fatalf("server read body %q, want hello", s.body)
					}
				}
			})
		}
	}
}

// TestTimedWarmupTakesNoneOfTheCount: with -n and a timed --warmup, a
// request() that returns several requests sends them all during the
// warm-up, but none of them may take from the -n requests measured after.
func TestTimedWarmupTakesNoneOfTheCount(t *testing.T) {
	const req = `GET /w HTTP/1.1\r\nHost: x\r\n\r\n`
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{})
			cfg := Config{Engine: engine, Requests: 60, Warmup: 200 * time.Millisecond, Connections: 2}
			var err error
			if cfg.URL, err = url.Parse(srv.URL()); err != nil {
				t.Fatal(err)
			}
			withScript(t, &cfg, luaFile(t, "three.lua", `function request() return string.rep("`+req+`", 3) end`+"\n"))
			res := runLoad(t, srv, cfg)
			if res.Requests != 60 || srv.Requests() <= 60 {
				t.Errorf("measured %d of the %d the server saw; want 60 after a warm-up", res.Requests, srv.Requests())
			}
		})
	}
}

// TestScriptHeadRequestsHaveNoBody: the responses to HEAD requests that a
// script's request() makes carry a Content-Length and no body (RFC 9110
// §9.3.2), however the command line's method reads and however many
// requests one request() returns: the parser frames each response by the
// method of the request it answers.
func TestScriptHeadRequestsHaveNoBody(t *testing.T) {
	const (
		head = `wrk.format("HEAD", "/bytes/100")`
		get  = `wrk.format("GET", "/bytes/100")`
	)
	tests := []struct {
		name, method, returns string
	}{
		{"HEAD from request()", "", head},
		{"HEAD pipelined between GETs", "", get + ".." + head + ".." + get},
		{"HEADs pipelined", "", head + ".." + head},
		{"GET from request(), HEAD on the command line", "HEAD", get + ".." + head},
	}
	for _, engine := range transports() {
		for _, tt := range tests {
			t.Run(engine+"/"+tt.name, func(t *testing.T) {
				u := builtinTarget(t)
				cfg := Config{Engine: engine, URL: u, Method: tt.method, Requests: 24, Connections: 2, Threads: 1, Timeout: time.Second}
				withScript(t, &cfg, luaFile(t, "head.lua", "function request() return "+tt.returns+" end\n"))
				res, err := Run(t.Context(), cfg)
				if err != nil || res.Requests != 24 || res.Errors != (stats.Errors{}) {
					t.Errorf("err %v, responses %d, errors %+v %v; want 24 clean", err, res.Requests, res.Errors, res.ErrorCauses)
				}
			})
		}
	}
}
