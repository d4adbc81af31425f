package suite

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/environment"
	"github.com/pummel-dev/pummel/internal/english"
	"github.com/pummel-dev/pummel/internal/redact"
	"github.com/pummel-dev/pummel/measure"
	"github.com/pummel-dev/pummel/proc"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/render"
)

// Options configures Run.
type Options struct {
	// Dir, if set, receives the servers' logs, as Dir/logs/MODE-RUN.log;
	// otherwise each goes to a new temporary file.
	Dir string
	// Runs, if positive, replaces the plan's runs per mode.
	Runs int
	// Progress, if set, gets one line as each run ends.
	Progress io.Writer
	// Version is pummel's version, for the environment.
	Version string
	// Observe, if set, is called before each operation's load with its
	// config, which it may change (an exporter follows the load through
	// engine.Config.OnTick), the watch of the server, and which load it is.
	Observe func(cfg *engine.Config, w *measure.Watch, id LoadID)
}

// LoadID names one load of a suite: an operation in a run of a mode.
type LoadID struct {
	Mode, Operation string
	// Run numbers the mode's runs from 1.
	Run int
}

// Run carries out the suite: for each of the runs, one fresh server
// process per mode, modes interleaved (A B A B …). It returns the result
// of everything measured, also when it stops early: when a run cannot be
// carried out (the server does not start, or exits; the error says which
// run and why) or when ctx ends (Result.Interrupted, no error). Failed
// checks are counted in the result, not returned as an error.
func Run(ctx context.Context, s *Suite, opt Options) (*Result, error) {
	rep := newResult(s, opt)
	if opt.Runs > 0 {
		rep.RunsPerMode = opt.Runs
	}
	if opt.Dir != "" {
		if err := os.MkdirAll(filepath.Join(opt.Dir, "logs"), 0o755); err != nil {
			return rep, fmt.Errorf("creating the log directory: %w", err)
		}
	}
	err := rep.runAll(ctx, s, opt)
	if err != nil {
		rep.Error = err.Error()
	}
	rep.Interrupted = ctx.Err() != nil
	if serr := rep.Summarize(); serr != nil && err == nil {
		err = serr
	}
	if rep.Interrupted {
		return rep, nil
	}
	return rep, err
}

// runAll runs every mode RunsPerMode times, interleaved, until one fails.
func (rep *Result) runAll(ctx context.Context, s *Suite, opt Options) error {
	for n := 1; n <= rep.RunsPerMode; n++ {
		for _, m := range s.modes {
			run, err := runOnce(ctx, s, m, n, opt)
			run.fillEnvironment(rep.Environment)
			rep.Runs = append(rep.Runs, run)
			if ctx.Err() != nil {
				return nil
			}
			if err != nil {
				return fmt.Errorf("mode %s, run %d: %w", m.name, n, err)
			}
			if opt.Progress != nil {
				fmt.Fprintln(opt.Progress, progressLine(s, run, len(rep.Runs), rep.RunsPerMode*len(s.modes)))
			}
		}
	}
	return nil
}

// progressLine tells how a run went, in one line.
func progressLine(s *Suite, run RunResult, done, total int) string {
	var failures int64
	for _, op := range run.Operations {
		failures += op.CheckFailures
	}
	return strings.Join([]string{
		fmt.Sprintf("pummel suite: run %d/%d: mode %s, run %d", done, total, run.Mode, run.Run),
		"startup " + render.FormatTime(1e6*(run.StartupS)),
		"idle RSS " + render.FormatBytes(float64(run.IdleRSSBytes)),
		english.Plural(len(s.ops), "operation"),
		english.Plural(int(failures), "check failure"),
	}, ", ")
}

// newResult starts the result: the plan and the environment.
func newResult(s *Suite, opt Options) *Result {
	rep := &Result{Name: s.Name, PlanFile: s.File, Plan: s.Plan, Modes: s.Modes(), RunsPerMode: s.Runs}
	rep.Environment = environment.Describe(opt.Version, time.Now())
	rep.Environment.Binary = describeServer(s.server.command)
	for _, op := range s.ops {
		info := OperationInfo{Name: op.name, Method: op.requestMethod(), URL: redact.URLTemplate(op.url), Load: op.shape.describe()}
		if op.dependsOn >= 0 {
			info.DependsOn = s.ops[op.dependsOn].name
		}
		for _, e := range op.thresholds {
			info.Thresholds = append(info.Thresholds, e.String())
		}
		rep.Operations = append(rep.Operations, info)
	}
	return rep
}

// describeServer identifies the server's executable, looking past
// wrappers such as taskset, or returns nil. A path taken from the
// environment is recorded as written (${VAR}).
func describeServer(command []string) *stats.Binary {
	argv := make([]string, len(command))
	secret := make([]bool, len(command))
	for i, arg := range command {
		x := &expander{port: "0", tmpdir: os.TempDir(), lookupEnv: os.LookupEnv}
		expanded, err := x.expand(arg)
		if err != nil {
			return nil
		}
		argv[i], secret[i] = expanded, len(x.secrets) > 0
	}
	b, i, err := proc.DescribeServer(argv)
	if err != nil {
		return nil
	}
	if secret[i] {
		b.Path = command[i]
	}
	return &b
}

// fillEnvironment gives each operation's result the suite's environment,
// so that each is a complete result for `pummel report`.
func (run *RunResult) fillEnvironment(env stats.Environment) {
	for _, op := range run.Operations {
		if op.Result != nil {
			op.Result.Environment = env
		}
	}
}
