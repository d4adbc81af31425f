package script

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// endless is a loop that never returns, for the tests that stop one. A
// pcall inside catches the first stop, as a careless script might.
const endless = "while true do pcall(function() while true do end end) end"

// stopAfter is how long the tests let a loop run before stopping it.
const stopAfter = 50 * time.Millisecond

// TestOncePartsAreStopped runs a script whose top level, setup(), init()
// or done() never returns, and checks that it is stopped, by the context or
// by the limit, with an error naming the part and the line of the loop.
func TestOncePartsAreStopped(t *testing.T) {
	tests := []struct {
		name  string
		src   string // the loop is on line 2
		stage string // load, threads or done
		limit bool   // stopped by the limit, not by the context
		want  string
	}{
		{"top level, interrupted", "local x = 1\n" + endless, "load", false,
			"bad.lua:2: the top level was still running when pummel was interrupted"},
		{"setup, interrupted", "function setup(thread)\n" + endless + "\nend", "threads", false,
			"bad.lua:2: setup() was still running when pummel was interrupted"},
		{"setup, too long", "function setup(thread)\n" + endless + "\nend", "threads", true,
			"bad.lua:2: setup() did not return within 50ms"},
		{"init, interrupted", "function init(args)\n" + endless + "\nend", "threads", false,
			"bad.lua:2: init() was still running when pummel was interrupted"},
		{"init, too long", "function init(args)\n" + endless + "\nend", "threads", true,
			"bad.lua:2: init() did not return within 50ms"},
		{"done, too long", "function done(s, l, r)\n" + endless + "\nend", "done", true,
			"bad.lua:2: done() did not return within 50ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			limit := stopAfter
			if !tt.limit {
				limit = time.Minute
				time.AfterFunc(stopAfter, cancel)
			}
			err := runOnceParts(t, ctx, writeScript(t, tt.src), tt.stage, limit)
			var stopped *StoppedError
			if !errors.As(err, &stopped) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want a StoppedError containing %q", err, tt.want)
			}
		})
	}
}

// runOnceParts loads path with ctx and runs it up to stage, each part that
// runs once limited to limit after the top level, and returns the error of
// that stage; it fails the test if an earlier stage fails. Done is called
// with ctx already cancelled: the run it reports on is over.
func runOnceParts(t *testing.T, ctx context.Context, path, stage string, limit time.Duration) error {
	t.Helper()
	p, err := Load(ctx, path, Options{Target: target, Output: &bytes.Buffer{}})
	if stage == "load" || err != nil {
		if stage != "load" {
			t.Fatalf("Load: %v", err)
		}
		return err
	}
	t.Cleanup(p.Close)
	p.limit = limit
	threads, cancel := context.WithCancel(ctx)
	defer cancel()
	_, err = p.Threads(threads, 1, "127.0.0.1:8080")
	if stage == "threads" || err != nil {
		if stage != "threads" {
			t.Fatalf("Threads: %v", err)
		}
		return err
	}
	cancel()
	return p.Done(Summary{}, nil, nil)
}

// TestHooksAreStoppedWithTheirContext runs a hook that never returns and
// cancels the context given to Threads: the hook is stopped with an error
// naming it and the line, and every later call returns ErrStopped without
// running the script.
func TestHooksAreStoppedWithTheirContext(t *testing.T) {
	tests := []struct {
		name string
		src  string // the loop is on line 2
		call func(*Thread) error
		want string
	}{
		{"request", "function request()\n" + endless + "\nend",
			func(th *Thread) error { _, err := th.AppendRequest(nil); return err }, "bad.lua:2: request() was still running when the run ended"},
		{"delay", "function delay()\n" + endless + "\nend",
			func(th *Thread) error { _, err := th.Delay(); return err }, "bad.lua:2: delay() was still running when the run ended"},
		{"response", "function response(status, headers, body)\n" + endless + "\nend",
			func(th *Thread) error { return th.Response(200, nil, nil) }, "bad.lua:2: response() was still running when the run ended"},
		{"request in a coroutine made by init", "function init(args)\n" +
			"  co = coroutine.wrap(function() " + endless + " end)\nend\nfunction request() return co() end",
			func(th *Thread) error { _, err := th.AppendRequest(nil); return err }, "bad.lua:2: request() was still running when the run ended"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Load(t.Context(), writeScript(t, tt.src), Options{Target: target})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			ctx, cancel := context.WithCancel(t.Context())
			ths, err := p.Threads(ctx, 1, "127.0.0.1:8080")
			if err != nil {
				t.Fatal(err)
			}
			time.AfterFunc(stopAfter, cancel)
			err = tt.call(ths[0])
			var stopped *StoppedError
			if !errors.As(err, &stopped) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want a StoppedError containing %q", err, tt.want)
			}
			if err := tt.call(ths[0]); !errors.Is(err, ErrStopped) {
				t.Errorf("a call after the stop: %v, want ErrStopped", err)
			}
		})
	}
}

// TestHooksDoNotAllocate checks that guarding a hook (its context, checked
// before the call and by every Lua instruction) adds no allocation to the
// per-request path: a request() that returns a prebuilt string and a
// delay() that returns a number allocate nothing.
func TestHooksDoNotAllocate(t *testing.T) {
	src := "local r = wrk.format()\nfunction request() return r end\nfunction delay() return 1 end"
	_, ths := load(t, writeScript(t, src), nil, 1)
	th := ths[0]
	buf := make([]byte, 0, 512)
	allocs := testing.AllocsPerRun(1000, func() {
		var err error
		if buf, err = th.AppendRequest(buf[:0]); err != nil {
			t.Fatal(err)
		}
		if _, err := th.Delay(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per request() and delay(), want 0", allocs)
	}
}

// TestStageBound checks how long the parts that run once before a run may
// run: OnceLimit each without a budget or with a longer one, the budget
// for them all, to a common end, when it is shorter.
func TestStageBound(t *testing.T) {
	tests := []struct {
		name    string
		budget  time.Duration
		limit   time.Duration
		someEnd bool
	}{
		{"no budget", 0, OnceLimit, false},
		{"a longer budget", 3 * OnceLimit, OnceLimit, false},
		{"as long as OnceLimit", OnceLimit, OnceLimit, false},
		{"a shorter budget", OnceLimit / 4, OnceLimit / 4, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := stage(OnceLimit, tt.budget)
			if b.limit != tt.limit || b.end.IsZero() == tt.someEnd {
				t.Errorf("stage(%v, %v) = limit %v, end %v; want limit %v, an end: %v", OnceLimit, tt.budget, b.limit, b.end, tt.limit, tt.someEnd)
			}
			if left := b.left(); left > tt.limit {
				t.Errorf("left() = %v, more than the limit %v", left, tt.limit)
			}
		})
	}
}

// TestBudgetBoundsLoadAndThreadsTogether: Load's top level takes 60% of
// the budget and init() another 60%: init() is stopped at the budget, not
// given a budget of its own. The top level waits only in the setup state
// (the first to run it leaves a mark), so each thread's top level is quick.
func TestBudgetBoundsLoadAndThreadsTogether(t *testing.T) {
	const budget = 500 * time.Millisecond
	mark := filepath.Join(t.TempDir(), "mark")
	wait := fmt.Sprintf("local t = os.clock() while os.clock() - t < %g do end", 0.6*budget.Seconds())
	src := fmt.Sprintf("local f = io.open(%q, \"r\")\nif f then f:close() else io.open(%q, \"w\"):close(); %s end\n"+
		"function init(args)\n%s\nend\n", mark, mark, wait, wait)
	p, err := Load(t.Context(), writeScript(t, src), Options{Target: target, Output: &bytes.Buffer{}, Limit: budget})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	_, err = p.Threads(t.Context(), 1, "127.0.0.1:8080")
	var stopped *StoppedError
	if !errors.As(err, &stopped) || stopped.Hook != "init()" || stopped.Limit != budget {
		t.Errorf("Threads = %v, want init() stopped at the budget %v", err, budget)
	}
}
