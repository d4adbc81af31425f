package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/measure"
	"github.com/pummel-dev/pummel/proc"
	"github.com/pummel-dev/pummel/stats"
)

// watchedFunc is what runs while the server is watched: one load, or
// the steps of a capacity search.
type watchedFunc func(ctx context.Context, w *measure.Watch) (stats.Result, error)

// loadOnce is the watchedFunc of a plain run: the load cfg, once,
// exporting its figures as asked.
func (l *loader) loadOnce(cfg engine.Config) watchedFunc {
	return func(ctx context.Context, w *measure.Watch) (stats.Result, error) {
		l.exports.observe(&cfg, w)
		return w.Load(ctx, cfg)
	}
}

// watchedLoad runs the load once, sampling every --pid process: idle RSS
// just before the load, peak RSS and CPU during it, RSS right after.
func (l *loader) watchedLoad(ctx context.Context, cfg engine.Config, plan watchPlan) (stats.Result, error) {
	return l.watched(ctx, plan, l.loadOnce(cfg))
}

// watched runs body with every --pid process watched, after sampling
// their idle RSS, and announces the load as it starts.
func (l *loader) watched(ctx context.Context, plan watchPlan, body watchedFunc) (stats.Result, error) {
	w, err := measure.Attach(plan.pids, measure.Options{WatchOptions: plan.watch, RSSPoints: maxRSSPoints})
	if err != nil {
		if plan.server != nil && errors.Is(err, proc.ErrNoSuchProcess) {
			return stats.Result{}, exitError{exitFailed, plan.server.ExitedError("before the load").Error()}
		}
		return stats.Result{}, usageError{err.Error()}
	}
	defer w.Stop()
	if _, err := w.Idle(ctx); err != nil {
		if ctx.Err() != nil {
			return stats.Result{}, exitError{exitInterrupted, "interrupted before the run started"}
		}
		if plan.server != nil && errors.Is(err, proc.ErrExited) {
			err = plan.server.ExitedError("before the load") // with its exit status and log
		}
		return stats.Result{}, exitError{exitFailed, err.Error()}
	}
	l.announce()
	res, err := body(ctx, w)
	return res, loadError(ctx, err)
}

// maxRSSPoints bounds ServerUsage.RSSSeries, so a long run's JSON stays small.
const maxRSSPoints = 2000

// execRuns starts the server --runs times, each time fresh: startup, idle
// RSS, the load, RSS after, stop. With several runs the result merges them
// and keeps each under Runs.
func (l *loader) execRuns(ctx context.Context, cfg engine.Config, plan watchPlan) (stats.Result, error) {
	var runs []stats.Result
	for i := range plan.runs {
		spec := *plan.exec
		if spec.LogPath != "" && plan.runs > 1 {
			spec.LogPath = fmt.Sprintf("%s.%d", spec.LogPath, i+1)
		}
		res, err := l.execRun(ctx, spec, plan.watch, l.loadOnce(cfg))
		if err != nil && ctx.Err() != nil && len(runs) > 0 {
			break // interrupted between runs: report the runs done
		}
		if err != nil {
			return res, err
		}
		runs = append(runs, res)
		if res.Interrupted {
			break
		}
	}
	all, err := stats.Combine(runs, stats.Sequential)
	all.Interrupted = all.Interrupted || ctx.Err() != nil
	if err != nil {
		return all, exitError{exitFailed, err.Error()}
	}
	if len(runs) > 1 {
		all.Runs = runs
	}
	return all, nil
}

// execRun is one fresh server process and body (one load, or a capacity
// search) against it.
func (l *loader) execRun(ctx context.Context, spec proc.Spec, opts proc.WatchOptions, body watchedFunc) (res stats.Result, err error) {
	p, err := proc.Launch(ctx, spec)
	if err != nil {
		if ctx.Err() != nil {
			return stats.Result{}, exitError{exitInterrupted, "interrupted while starting the server"}
		}
		return stats.Result{}, exitError{exitFailed, err.Error()} // it ends with the log's path and tail
	}
	defer func() {
		p.Stop() //nolint:errcheck // Stop's failure to end a process is not the run's
		l.settleLog(p, res, err)
	}()
	plan := watchPlan{pids: []int{p.PID()}, watch: opts, server: p}
	res, err = l.watched(ctx, plan, body)
	if err != nil || len(res.Server) == 0 { // none: a search interrupted before its first step
		return res, err
	}
	startup := p.Startup().Seconds()
	res.Server[0].StartupS = &startup
	if res.Server[0].ExitedDuringLoad {
		res.Server[0].ExitReason = p.ExitReason()
		res.Warnings = append(res.Warnings, fmt.Sprintf("the server exited during the load (%s); its log: %s", p.ExitReason(), p.LogPath()))
	}
	return res, nil
}

// settleLog removes the server's temporary log after a run that went
// well; otherwise it keeps the log and prints its path, unless a warning
// of the result (the server exited during the load) or the error (it
// exited before) names it already.
func (l *loader) settleLog(p *proc.Process, res stats.Result, err error) {
	exited := len(res.Server) > 0 && res.Server[0].ExitedDuringLoad
	wentWell := err == nil && !res.Interrupted && res.Requests > 0 && !exited
	switch {
	case !p.TemporaryLog(), exited, err != nil && strings.Contains(err.Error(), p.LogPath()):
	case wentWell && p.RemoveLog() == nil:
	default:
		fmt.Fprintf(l.stderr, "pummel: the server's log is kept: %s\n", p.LogPath())
	}
}
