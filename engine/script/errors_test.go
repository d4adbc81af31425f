package script

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrors checks that script errors come back as one line naming the
// script (and line, when Lua knows it), at the stage they happen, and never
// as a panic.
func TestErrors(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		stage string // load, threads, request, delay, response or done
		want  string // substring of the error; "bad.lua" is the script
	}{
		{"syntax error", "x = = 1", "load", "bad.lua:1: syntax error near '='"},
		{"syntax error line 3", "local a = 1\n\nlocal = 3", "load", "bad.lua:3: syntax error near '='"},
		{"unfinished function", "function f()\n  return 1\n", "load", "bad.lua: syntax error at end of file"},
		{"runtime error at top level", "local x\nx.y = 1", "load", "bad.lua:2: attempt to index"},
		{"error in init", "function init(args)\n  error('bad init')\nend", "threads", "bad.lua:2: bad init"},
		{"error in setup", "function setup(thread)\n  thread:nope()\nend", "threads", "bad.lua:2:"},
		{"set a function", "function setup(thread)\n  thread:set('f', print)\nend", "threads",
			`bad.lua:2: thread:set("f"): cannot copy a function between threads`},
		{"set a cycle", "function setup(thread)\n  local t = {}\n  t.t = t\n  thread:set('t', t)\nend", "threads",
			"bad.lua:4: thread:set(\"t\"): table nested too deeply"},
		{"set another field", "function setup(thread)\n  thread.id = 1\nend", "threads",
			"bad.lua:2: cannot set 'id' on a thread"},
		{"bad addr", "function setup(thread)\n  thread.addr = 5\nend", "threads", "bad.lua:2: thread.addr must be an address from wrk.lookup or a \"host:port\" string, not a number"},
		{"bad wrk.format headers", "function init()\n  wrk.format(nil, nil, 'x')\nend", "threads",
			"bad.lua:2: bad argument #3 to format (headers must be a table)"},
		{"runtime error in request", "function request()\n  return nil .. 'x'\nend", "request", "bad.lua:2: cannot perform concat"},
		{"request returns a number", "function request() return 42 end", "request",
			"bad.lua: request() returned a number, want a string"},
		{"request returns a table", "function request() return {} end", "request",
			"bad.lua: request() returned a table, want a string"},
		{"request returns nil", "function request() end", "request", "bad.lua: request() returned nil, want a string"},
		{"request returns empty", "function request() return '' end", "request", "bad.lua: request() returned an empty string"},
		{"error object", "function request() error({code = 1}) end", "request", "bad.lua: error object is a table"},
		{"error without position", "function request() error('plain', 0) end", "request", "bad.lua: plain"},
		{"multi-line message", "function request() error('one\\ntwo') end", "request", "bad.lua:1: one two"},
		{"stack overflow", "local function f() return 1 + f() end\nfunction request() return f() end", "request",
			"bad.lua:1: stack overflow"},
		{"delay returns a string", "function delay() return 'soon' end", "delay",
			"bad.lua: delay() returned a string, want a number of milliseconds"},
		{"delay returns nil", "function delay() end", "delay", "bad.lua: delay() returned nil"},
		{"runtime error in response", "function response(status, headers, body)\n  error('nope')\nend", "response",
			"bad.lua:2: nope"},
		{"runtime error in done", "function done(s, l, r)\n  return l.nofield + 1\nend", "done", "bad.lua:2: "},
		{"percentile called with a dot", "function done(s, l, r)\n  return l.percentile(50)\nend", "done",
			"bad.lua:2: bad argument #1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeScript(t, tt.src)
			err := runStage(t, path, tt.stage)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.want) || strings.Contains(msg, "\n") {
				t.Errorf("error = %q, want one line containing %q", msg, tt.want)
			}
			if !strings.HasPrefix(msg, path) {
				t.Errorf("error = %q, want it to start with the script path", msg)
			}
		})
	}
}

// runStage runs the script at path up to stage and returns the first error;
// it fails the test if an earlier stage fails.
func runStage(t *testing.T, path, stage string) error {
	t.Helper()
	p, err := Load(t.Context(), path, Options{Target: target, Output: &bytes.Buffer{}})
	if stage == "load" || err != nil {
		if stage != "load" {
			t.Fatalf("Load: %v", err)
		}
		return err
	}
	t.Cleanup(p.Close)
	ths, err := p.Threads(context.Background(), 1, "127.0.0.1:8080")
	if stage == "threads" || err != nil {
		if stage != "threads" {
			t.Fatalf("Threads: %v", err)
		}
		return err
	}
	th := ths[0]
	switch stage {
	case "request":
		_, err = th.AppendRequest(nil)
	case "delay":
		_, err = th.Delay()
	case "response":
		err = th.Response(200, []Header{{"Server", "x"}}, []byte("body"))
	case "done":
		err = p.Done(Summary{}, latencies(), dist{1})
	default:
		t.Fatalf("unknown stage %q", stage)
	}
	return err
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(t.Context(), filepath.Join(t.TempDir(), "missing.lua"), Options{Target: target})
	if err == nil || !strings.Contains(err.Error(), "missing.lua") {
		t.Errorf("Load(missing) = %v, want an error naming the file", err)
	}
}

// TestErrorThenContinue checks that a thread keeps working after a hook
// failed: the engine counts the error and goes on.
func TestErrorThenContinue(t *testing.T) {
	path := writeScript(t, "local n = 0\nfunction request()\n  n = n + 1\n  if n == 1 then error('first') end\n  return wrk.format()\nend")
	_, ths := load(t, path, nil, 1)
	if _, err := ths[0].AppendRequest(nil); err == nil {
		t.Fatal("first request: no error")
	}
	if r := one(t, ths[0]); r.Path != "/" {
		t.Errorf("second request = %+v", r)
	}
}
