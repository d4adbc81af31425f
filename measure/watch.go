package measure

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/transports"
	"github.com/pummel-dev/pummel/proc"
	"github.com/pummel-dev/pummel/stats"
)

// Options says how a Watch watches.
type Options struct {
	proc.WatchOptions
	// RSSPoints, if positive, keeps each process's RSS over the load in
	// its figures (stats.ServerUsage.RSSSeries), thinned evenly to at
	// most that many points.
	RSSPoints int
	// TreeFlag is how the user adds a process's descendants to its
	// figures (--pid-tree, a plan's server.tree), for the warning about a
	// process whose descendants are left out.
	TreeFlag string
}

// Watch is the server processes watched over a measurement: from before
// the load, for their idle RSS, to after it.
type Watch struct {
	watchers []*proc.Watcher
	opts     Options
}

// Attach starts watching each of pids. Its error is the first process
// that cannot be watched (proc.ErrNoSuchProcess for one that is not
// running); the others are then not watched.
func Attach(pids []int, opts Options) (*Watch, error) {
	w := &Watch{opts: opts}
	for _, pid := range pids {
		pw, err := proc.Watch(pid, opts.WatchOptions)
		if err != nil {
			w.Stop()
			return nil, err
		}
		w.watchers = append(w.watchers, pw)
	}
	return w, nil
}

// Idle samples each process's idle RSS before the load:
// proc.DefaultIdleSamples samples proc.DefaultIdleGap apart, their median
// for each, in the order of the pids. It fails when a process exited
// (proc.ErrExited) or ctx ended.
func (w *Watch) Idle(ctx context.Context) ([]int64, error) {
	var idle []int64
	for _, pw := range w.watchers {
		rss, err := pw.Idle(ctx, proc.DefaultIdleSamples, proc.DefaultIdleGap)
		if err != nil {
			return idle, err
		}
		idle = append(idle, rss)
	}
	return idle, nil
}

// Load runs the engine's load cfg once with every process watched: peak
// RSS and CPU time during it, RSS right after. It appends each process's
// figures to the result's Server, in the order of the pids, whatever the
// engine returned, and stops watching.
func (w *Watch) Load(ctx context.Context, cfg engine.Config) (stats.Result, error) {
	res, err := w.Step(ctx, cfg)
	w.Stop()
	return res, err
}

// Step runs the load cfg as one of several over the same watch (the
// steps of a capacity search): as Load, but watching goes on, and the
// figures of each process are those of this load alone. They count from
// when the engine begins measuring (Config.OnMeasure), so a warm-up's CPU
// time and peak RSS are left out, as from every other figure.
func (w *Watch) Step(ctx context.Context, cfg engine.Config) (stats.Result, error) {
	w.startLoad()
	then := cfg.OnMeasure
	cfg.OnMeasure = func(t time.Time) {
		w.startLoad()
		if then != nil {
			then(t)
		}
	}
	res, err := transports.Run(ctx, cfg)
	for _, pw := range w.watchers {
		pw.EndLoad()
		usage := proc.PerRequest(pw.Usage(), res.Requests)
		if w.opts.RSSPoints > 0 {
			for _, s := range pw.LoadSeries(w.opts.RSSPoints) {
				usage.RSSSeries = append(usage.RSSSeries, stats.RSSSample{T: s.Offset.Seconds(), Bytes: s.RSSBytes})
			}
		}
		res.Server = append(res.Server, usage)
	}
	for _, pw := range w.watchers { // once every process's figures are taken: this reads all of /proc
		if names := pw.Unwatched(); len(names) > 0 {
			res.Warnings = append(res.Warnings, unwatchedWarning(pw, names, w.opts.TreeFlag))
		}
	}
	return res, err
}

// unwatchedWarning says that pw's figures leave out its descendants,
// names, and how to count them. It names the process by its command, not
// its pid, so that --runs' fresh processes share one warning.
func unwatchedWarning(pw *proc.Watcher, names []string, treeFlag string) string {
	server := cmp.Or(pw.Name(), "pid "+strconv.Itoa(pw.PID()))
	return fmt.Sprintf("the server process %s has child processes (%s) whose RSS and CPU time its figures leave out: %s counts them",
		server, strings.Join(names, ", "), cmp.Or(treeFlag, "--pid-tree"))
}

// startLoad marks the start of the load for every process.
func (w *Watch) startLoad() {
	for _, pw := range w.watchers {
		pw.StartLoad()
	}
}

// Watchers are the processes' watchers, in the order of the pids: their
// samples stay readable after Stop.
func (w *Watch) Watchers() []*proc.Watcher { return w.watchers }

// Stop stops watching; it may be called more than once.
func (w *Watch) Stop() {
	for _, pw := range w.watchers {
		pw.Stop()
	}
}
