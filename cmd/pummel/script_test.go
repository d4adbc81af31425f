package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/engine/script"
	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/internal/redact"
	"github.com/pummel-dev/pummel/stats"
)

// hangLimit bounds how long a test waits for pummel to end: past it the
// test fails instead of hanging. It is not the expected time.
const hangLimit = 15 * time.Second

// pummelBounded is pummel, failing the test if it has not returned within
// hangLimit.
func pummelBounded(t *testing.T, ctx context.Context, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	type outcome struct {
		code           int
		stdout, stderr string
	}
	done := make(chan outcome, 1)
	go func() {
		code, stdout, stderr := pummel(ctx, args...)
		done <- outcome{code, stdout, stderr}
	}()
	select {
	case o := <-done:
		return o.code, o.stdout, o.stderr
	case <-time.After(hangLimit):
		t.Fatalf("pummel %s was still running after %v", strings.Join(args, " "), hangLimit)
		return 0, "", ""
	}
}

// luaFile writes a script and returns its path.
func luaFile(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "loop.lua")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// loopingRequest makes three requests, then loops in request() (line 4).
// On one connection the three responses are read before the fourth call,
// on either transport; with more, the event loop abandons a response in
// flight when its goroutine stalls in Lua.
const loopingRequest = "local n = 0\nfunction request()\n  n = n + 1\n  while n > 3 do end\n  return wrk.format()\nend\n"

// TestLoopingScriptDoesNotHoldTheRun runs scripts that never return from a
// hook: -d or the first interrupt still ends the run, the results are
// printed and written, and the message names the hook and line.
func TestLoopingScriptDoesNotHoldTheRun(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		duration  string
		interrupt bool
		code      int
		stderr    string // in the one-line message, when the run did not start
	}{
		{"request(), -d ends", loopingRequest, "500ms", false, 0, ""},
		{"request(), interrupted", loopingRequest, "1m", true, exitInterrupted, ""},
		{"init(), interrupted", "function init(args)\n  local n = 0\n  while true do n = n + 1 end\nend\n", "1m", true,
			exitInterrupted, "loop.lua:3: init() was still running when pummel was interrupted"},
		{"top level, interrupted", "local n = 0\nwhile true do n = n + 1 end\n", "1m", true,
			exitInterrupted, "loop.lua:2: the top level was still running when pummel was interrupted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{})
			out := filepath.Join(t.TempDir(), "out.json")
			ctx := t.Context()
			if tt.interrupt {
				c, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
				defer cancel()
				ctx = c
			}
			// A hook still running is stopped a quarter of --timeout after
			// the run ends: 200 ms, not the 500 ms of the default 2 s.
			code, stdout, stderr := pummelBounded(t, ctx, "-t", "1", "-c", "1", "-d", tt.duration, "--timeout", "800ms",
				"-o", out, "-s", luaFile(t, tt.src), srv.URL())
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s", code, tt.code, stderr)
			}
			if tt.stderr != "" {
				if !strings.Contains(stderr, tt.stderr) || strings.Count(stderr, "\n") != 1 {
					t.Errorf("stderr %q, want one line containing %q", stderr, tt.stderr)
				}
				return
			}
			var res stats.Result
			b, err := os.ReadFile(out)
			if err != nil || json.Unmarshal(b, &res) != nil {
				t.Fatalf("-o %s: %v", out, err)
			}
			want := "loop.lua:4: request() was still running when the run ended"
			if res.Requests != 3 || res.Errors.Validation != 1 || !strings.Contains(stdout, want) {
				t.Errorf("%d responses, %d validation errors, want 3 and 1 naming %q:\n%s", res.Requests, res.Errors.Validation, want, stdout)
			}
		})
	}
}

// TestLoopingOncePartEndsWithTheRun runs scripts whose top level, setup()
// or init() never returns, with a short -d: the part is stopped within the
// run's own length and --timeout, well before script.OnceLimit, with exit
// 2 and the line that names the part, as when OnceLimit stops it.
func TestLoopingOncePartEndsWithTheRun(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"top level", "local n = 0\nwhile true do n = n + 1 end\n",
			"loop.lua:2: the top level did not return within 400ms"},
		{"setup()", "function setup(thread)\n  local n = 0\n  while true do n = n + 1 end\nend\n",
			"loop.lua:3: setup() did not return within 400ms"},
		{"init()", "function init(args)\n  local n = 0\n  while true do n = n + 1 end\nend\n",
			"loop.lua:3: init() did not return within 400ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{})
			start := time.Now()
			code, _, stderr := pummelBounded(t, t.Context(), "-t", "1", "-c", "1", "-d", "200ms", "--timeout", "200ms",
				"-s", luaFile(t, tt.src), srv.URL())
			if took := time.Since(start); took >= script.OnceLimit/2 {
				t.Errorf("pummel took %v, want well under script.OnceLimit (%v): -d 200ms --timeout 200ms bound the script", took, script.OnceLimit)
			}
			if code != exitUsage || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q: want %d and one line containing %q", code, stderr, exitUsage, tt.want)
			}
		})
	}
}

// TestResultRecordsTheScriptsRequest runs a script that sets wrk.method,
// path, body and headers: the JSON's config records the request sent, its
// secret header redacted, and the script by base name and digest.
func TestResultRecordsTheScriptsRequest(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	src := "wrk.method = 'POST'\nwrk.path = '/other?q=1'\nwrk.body = '0123456789abcdef'\n" +
		"wrk.headers['X-Test'] = '1'\nwrk.headers['Authorization'] = 'Bearer s3cr3t-t0ken'\n"
	path := luaFile(t, src)
	code, stdout, stderr := pummelBounded(t, t.Context(), "-t", "1", "-c", "1", "-n", "3", "--format", "json", "-s", path, srv.URL())
	var res stats.Result
	if code != 0 || json.Unmarshal([]byte(stdout), &res) != nil {
		t.Fatalf("exit %d, stderr %q, stdout %q", code, stderr, stdout)
	}
	c, sum := res.Config, sha256.Sum256([]byte(src))
	if c.Method != "POST" || !strings.HasSuffix(c.URL, "/other?q=1") || c.BodyBytes != 16 || c.Request != "" ||
		!slices.Contains(c.Headers, "X-Test: 1") || !slices.Contains(c.Headers, "Authorization: "+redact.Redacted) ||
		c.Script != "loop.lua" || c.ScriptSHA256 != hex.EncodeToString(sum[:]) || len(c.RequestSHA256) != 64 {
		t.Errorf("config %+v: want POST /other?q=1, 16 bytes, X-Test, Authorization redacted, loop.lua and digests", c)
	}
	for _, key := range []string{`"request_sha256": "`, `"script": "loop.lua"`, `"script_sha256": "`} {
		if !strings.Contains(stdout, key) {
			t.Errorf("the JSON lacks %s", key)
		}
	}
	if strings.Contains(stdout, "s3cr3t-t0ken") {
		t.Errorf("the JSON holds the script's token:\n%s", stdout)
	}
}

// TestSIGTERMStopsALoopingScript sends the real pummel one SIGTERM while
// its script loops in request(): it exits 130 with the partial result.
// The script says when it starts to loop (on stderr, as the result is
// JSON): only then has the third response surely been read. (The server's
// count of 3 came before its answer, and a signal then could abandon it.)
func TestSIGTERMStopsALoopingScript(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	src := strings.Replace(loopingRequest, "while n > 3 do end", "if n > 3 then print('looping') end\n  while n > 3 do end", 1)
	cmd := exec.Command(pummelBinary(t), "-t", "1", "-c", "1", "-d", "1m", "--format", "json", "-s", luaFile(t, src), srv.URL())
	var stdout bytes.Buffer
	stderr := &watchedWriter{want: "looping", seen: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	select {
	case <-stderr.seen:
	case <-time.After(hangLimit):
	}
	cmd.Process.Signal(syscall.SIGTERM) //nolint:errcheck // one that ended already shows in its exit code
	code := awaitEnd(t, cmd, ended, syscall.SIGTERM)
	var res stats.Result
	if code != exitInterrupted || json.Unmarshal(stdout.Bytes(), &res) != nil || res.Requests != 3 {
		t.Errorf("exit %d, stdout %q, stderr %q: want 130 and a JSON result of 3 requests", code, stdout.String(), stderr.String())
	}
}

// watchedWriter collects what a process writes and closes seen once it
// holds want.
type watchedWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *watchedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return n, err
}

func (w *watchedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestScriptPrintsAwayFromMachineOutput checks that print() and io.write()
// from every part of a script go to stderr when stdout carries JSON or
// markdown, and to stdout with text, as in wrk.
func TestScriptPrintsAwayFromMachineOutput(t *testing.T) {
	path := luaFile(t, `print("top")
function init(args) print("init") end
function request() io.write("request\n"); return wrk.format() end
function response(status, headers, body) io.stdout:write("response\n") end
function done(summary, latency, requests) print("done") end
`)
	srv := fixture.New(t, fixture.Behaviour{})
	for _, format := range []string{"json", "markdown", "text"} {
		t.Run(format, func(t *testing.T) {
			code, stdout, stderr := pummelBounded(t, t.Context(), "-t", "1", "-c", "1", "-n", "2", "--format", format, "-s", path, srv.URL())
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			script, result := stderr, stdout
			if format == "text" {
				script = stdout
			}
			for _, want := range []string{"top\n", "init\n", "request\n", "response\n", "done\n"} {
				if !strings.Contains(script, want) {
					t.Errorf("%q missing from the script's output:\n%s", want, script)
				}
			}
			var res stats.Result
			if format == "json" && json.Unmarshal([]byte(result), &res) != nil {
				t.Errorf("stdout is not JSON:\n%s", result)
			}
			if format == "markdown" && !strings.HasPrefix(result, "|") && !strings.HasPrefix(result, "#") {
				t.Errorf("stdout is not markdown:\n%s", result)
			}
		})
	}
}
