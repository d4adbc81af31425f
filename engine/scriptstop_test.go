package engine

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/engine/script"
	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

// hangLimit bounds how long a test waits for a run that should end: past
// it the test fails instead of hanging. It is not the expected time.
const hangLimit = 15 * time.Second

// runBounded runs cfg and fails the test if the run has not returned
// within hangLimit.
func runBounded(t *testing.T, ctx context.Context, cfg Config) (stats.Result, error) {
	t.Helper()
	type outcome struct {
		res stats.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := Run(ctx, cfg)
		done <- outcome{res, err}
	}()
	select {
	case o := <-done:
		return o.res, o.err
	case <-time.After(hangLimit):
		t.Fatalf("the run was still going %v after it started", hangLimit)
		return stats.Result{}, nil
	}
}

// loopingScript writes a script whose hook never returns once it has run
// after times, and returns its path. The loop is on line 4.
func loopingScript(t *testing.T, hook string, after int) string {
	t.Helper()
	params := map[string]string{"request": "", "delay": "", "response": "status, headers, body", "init": "args"}[hook]
	ret := map[string]string{"request": "return wrk.format()", "delay": "return 0"}[hook]
	src := "local n = 0\nfunction " + hook + "(" + params + ")\n  n = n + 1\n" +
		"  while n > " + strconv.Itoa(after) + " do end\n  " + ret + "\nend\n"
	path := filepath.Join(t.TempDir(), "loop.lua")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLoopingHookEndsTheRun runs a script whose request(), delay() or
// response() loops forever after a few requests: the run still ends when
// -d passes, or at the first interrupt, with the requests made before it,
// and the loop is counted as a validation error naming the hook and line.
func TestLoopingHookEndsTheRun(t *testing.T) {
	for _, engine := range transports() {
		for _, hook := range []string{"request", "delay", "response"} {
			for _, interrupt := range []bool{false, true} {
				name := engine + "/" + hook + map[bool]string{false: ", -d ends", true: ", interrupted"}[interrupt]
				t.Run(name, func(t *testing.T) {
					srv := fixture.New(t, fixture.Behaviour{})
					u, _ := url.Parse(srv.URL())
					// A looping hook is stopped a quarter of --timeout after
					// the run ends (load.scriptContext): 200 ms here, not the
					// 500 ms of a 2 s timeout, twelve times over, each with
					// a CPU spinning in Lua.
					cfg := Config{Engine: engine, URL: u, Duration: 500 * time.Millisecond, Connections: 2, Threads: 1, Timeout: 800 * time.Millisecond}
					ctx := t.Context()
					if interrupt {
						cfg.Duration = time.Minute
						c, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
						defer cancel()
						ctx = c
					}
					withScript(t, &cfg, loopingScript(t, hook, 3))
					res, err := runBounded(t, ctx, cfg)
					if err != nil {
						t.Fatal(err)
					}
					checkLoopStopped(t, res, hook, interrupt)
				})
			}
		}
	}
}

// checkLoopStopped checks the result of a run whose hook began to loop
// after three calls.
func checkLoopStopped(t *testing.T, res stats.Result, hook string, interrupted bool) {
	t.Helper()
	cause := strings.Join(keys(res.ErrorCauses["validation"]), "; ")
	want := "loop.lua:4: " + hook + "() was still running when the run ended"
	if res.Errors.Validation != 1 || !strings.Contains(cause, want) {
		t.Errorf("validation errors %d (%s), want 1 containing %q", res.Errors.Validation, cause, want)
	}
	// Three hooks return; a response already read when response() began
	// looping is counted, and one on the other connection.
	if res.Requests < 1 || res.Requests > 5 || res.Interrupted != interrupted {
		t.Errorf("%d responses, interrupted %v: want those made before the loop, and %v", res.Requests, res.Interrupted, interrupted)
	}
}

// TestLoopingInitIsInterrupted runs a script whose init() never returns:
// cancelling the run's context stops it before the load, with an error
// naming init() and the line.
func TestLoopingInitIsInterrupted(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	u, _ := url.Parse(srv.URL())
	cfg := Config{URL: u, Duration: time.Minute, Connections: 1, Threads: 1, Timeout: 2 * time.Second} // init runs before any transport
	withScript(t, &cfg, loopingScript(t, "init", 0))
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	_, err := runBounded(t, ctx, cfg)
	var stopped *script.StoppedError
	if !errors.As(err, &stopped) || !strings.Contains(err.Error(), "loop.lua:4: init() was still running when pummel was interrupted") {
		t.Errorf("Run = %v, want init() stopped at loop.lua:4", err)
	}
	if srv.Requests() != 0 {
		t.Errorf("the server saw %d requests, want none", srv.Requests())
	}
}
