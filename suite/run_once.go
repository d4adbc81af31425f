package suite

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/parse"
	"github.com/pummel-dev/pummel/measure"
	"github.com/pummel-dev/pummel/proc"
)

// runOnce is one run: a fresh server with a fresh port and temporary
// directory, startup, idle RSS, the operations, RSS after, stop, clean up.
func runOnce(ctx context.Context, s *Suite, m mode, n int, opt Options) (RunResult, error) {
	rep := RunResult{Mode: m.name, Run: n}
	port, err := freePort()
	if err != nil {
		return rep, err
	}
	tmp, err := os.MkdirTemp("", "pummel-suite-")
	if err != nil {
		return rep, fmt.Errorf("creating {tmpdir}: %w", err)
	}
	rep.Tmpdir = tmp
	x := &expander{port: strconv.Itoa(port), tmpdir: tmp, lookupEnv: os.LookupEnv}
	r := &runner{suite: s, x: x, rep: &rep, failed: make([]bool, len(s.ops)), observe: opt.Observe}
	err = r.run(ctx, m, logPath(opt.Dir, m.name, n))
	if rerr := os.RemoveAll(tmp); rerr != nil {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("removing {tmpdir}: %v", rerr))
	}
	if err != nil {
		err = scrubbed{err: err, msg: x.scrub(err.Error())}
		rep.Error = err.Error()
	}
	return rep, err
}

// logPath is where run n of mode keeps its server's log: in dir's logs,
// or "" (a new temporary file) without a dir.
func logPath(dir, mode string, n int) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "logs", fmt.Sprintf("%s-%d.log", mode, n))
}

// freePort returns a TCP port free on the loopback interface just now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("choosing {port}: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// scrubbed is an error whose message had the values of ${VAR} references
// replaced.
type scrubbed struct {
	err error
	msg string
}

func (e scrubbed) Error() string { return e.msg }
func (e scrubbed) Unwrap() error { return e.err }

// runner carries out one run against one server process.
type runner struct {
	suite  *Suite
	x      *expander
	rep    *RunResult
	p      *proc.Process
	ready  time.Time // when the server was ready and settled: sample offsets count from here
	failed []bool    // by operation: it failed a check in this run
	// observe is Options.Observe.
	observe func(cfg *engine.Config, w *measure.Watch, id LoadID)
}

// run starts the server, measures it and stops it.
func (r *runner) run(ctx context.Context, m mode, logPath string) error {
	spec, err := r.spec(m, logPath)
	if err != nil {
		return err
	}
	r.p, err = proc.Launch(ctx, spec)
	if err != nil {
		return fmt.Errorf("starting the server: %w%s", err, notReadyHint(err, r.suite.server.readyProtocol))
	}
	r.ready = time.Now()
	r.rep.PID, r.rep.Log, r.rep.StartupS = r.p.PID(), r.p.LogPath(), r.p.Startup().Seconds()
	err = r.measure(ctx)
	if serr := r.p.Stop(); serr != nil {
		r.rep.Warnings = append(r.rep.Warnings, serr.Error())
	}
	return err
}

// notReadyHint names, after a server that never got ready, the fields
// that change the protocol its probes spoke: a server that speaks only h2c
// resets HTTP/1.1 probes, one that speaks only HTTP/1.1 fails HTTP/2 ones,
// one on UDP alone never hears TCP ones, and the timeout alone would not
// say why.
func notReadyHint(err error, p engine.Protocol) string {
	switch {
	case !errors.Is(err, proc.ErrNotReady):
		return ""
	case p == engine.HTTP1:
		return " (server.ready.http2 or .http3: true probes over HTTP/2 or HTTP/3)"
	}
	return " (server.ready.http2 and .http3: false probe over HTTP/1.1)"
}

// probes returns the protocol of readiness probes that speak p.
func probes(p engine.Protocol) proc.ReadyProtocol {
	switch p {
	case engine.HTTP2:
		return proc.ReadyHTTP2
	case engine.HTTP3:
		return proc.ReadyHTTP3
	}
	return proc.ReadyHTTP1
}

// spec is the server's launch specification for mode m, expanded.
func (r *runner) spec(m mode, logPath string) (proc.Spec, error) {
	srv := r.suite.server
	spec := proc.Spec{ReadyProtocol: probes(srv.readyProtocol), ReadyTimeout: srv.readyTimeout, Settle: &srv.settle, LogPath: logPath}
	var err error
	if spec.Command, err = r.expandAll(append(append([]string(nil), srv.command...), m.args...)); err != nil {
		return spec, err
	}
	if spec.Env, err = r.expandAll(append(append([]string(nil), srv.env...), m.env...)); err != nil {
		return spec, err
	}
	if spec.ReadyURL, err = r.x.expand(srv.readyURL); err != nil {
		return spec, err
	}
	ranges := srv.readyStatus
	spec.ReadyStatus = func(status int) bool { return parse.StatusIn(ranges, status) }
	return spec, nil
}

func (r *runner) expandAll(ss []string) ([]string, error) {
	out := make([]string, len(ss))
	for i, s := range ss {
		var err error
		if out[i], err = r.x.expand(s); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// measure takes the idle RSS, runs the operations in order and takes the
// RSS after them.
func (r *runner) measure(ctx context.Context) error {
	if err := r.idle(ctx); err != nil {
		return err
	}
	for i := range r.suite.ops {
		if ctx.Err() != nil {
			return nil
		}
		if err := r.operation(ctx, i); err != nil {
			return err
		}
	}
	return r.after()
}

// idle takes the idle RSS: the median of proc.DefaultIdleSamples samples
// proc.DefaultIdleGap apart.
func (r *runner) idle(ctx context.Context) error {
	w, base, err := r.watch(beforeOperations)
	if err != nil {
		return err
	}
	idle, err := w.Idle(ctx)
	w.Stop()
	r.keepSamples(w, base, "idle")
	if errors.Is(err, proc.ErrExited) {
		return r.exited(err, beforeOperations)
	}
	if err != nil {
		return fmt.Errorf("idle RSS: %w", err)
	}
	r.rep.IdleRSSBytes = idle[0]
	return nil
}

// after samples the RSS once more, after the last operation.
func (r *runner) after() error {
	w, base, err := r.watch("before its RSS after the operations was sampled")
	if err != nil {
		return fmt.Errorf("after the operations: %w", err)
	}
	w.Stop()
	r.keepSamples(w, base, "after")
	if s := w.Watchers()[0].Series(); len(s) > 0 {
		r.rep.RSSAfterBytes = s[len(s)-1].RSSBytes
	}
	return nil
}

// beforeOperations is when a server that exits before the idle RSS is
// taken exited.
const beforeOperations = "before the first operation"

// watch starts watching the server; base is when, for sample offsets;
// when says when a server found gone exited.
func (r *runner) watch(when string) (*measure.Watch, time.Time, error) {
	base := time.Now()
	w, err := measure.Attach([]int{r.p.PID()}, measure.Options{WatchOptions: proc.WatchOptions{Tree: r.suite.server.tree}, TreeFlag: "server.tree: true"})
	if err != nil {
		return nil, base, r.exited(err, when)
	}
	return w, base, nil
}

// exited describes a server found gone (when: "during the load") with
// its exit status and the end of its log (proc.Process.ExitedError);
// err is what found it, if anything.
func (r *runner) exited(err error, when string) error {
	gone := err == nil || errors.Is(err, proc.ErrNoSuchProcess) || errors.Is(err, proc.ErrExited)
	if exited, _ := r.p.Exited(); !exited && !gone {
		return err
	}
	return r.p.ExitedError(when)
}

// keepSamples adds the watch's samples to the run, labelled with phase.
func (r *runner) keepSamples(w *measure.Watch, base time.Time, phase string) {
	shift := base.Sub(r.ready)
	for _, pw := range w.Watchers() {
		for _, s := range pw.Series() {
			r.rep.Samples = append(r.rep.Samples, Sample{Phase: phase, OffsetS: (shift + s.Offset).Seconds(), RSSBytes: s.RSSBytes, CPUS: s.CPUSeconds})
		}
	}
}
