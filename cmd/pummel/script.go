package main

import (
	"context"
	"io"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/script"
	"github.com/pummel-dev/pummel/stats"
)

// loadScript loads -s with the arguments after --; a script that does not
// compile or fails at its top level is bad input, named in one line. A top
// level still running when pummel is interrupted, or past the run's own
// length and --timeout (engine.Config.ScriptLimit), is stopped.
func (l *loader) loadScript(ctx context.Context, cfg *engine.Config) (*script.Program, error) {
	o := l.opts
	if o.script == "" {
		if len(o.scriptArgs) > 0 {
			return nil, usageError{"unexpected arguments after the URL: script arguments need -s/--script"}
		}
		return nil, nil
	}
	p, err := script.Load(ctx, o.script, script.Options{Args: o.scriptArgs, Target: scriptTarget(cfg), Output: l.scriptOutput(), Limit: cfg.ScriptLimit()})
	switch {
	case err == nil:
		return p, nil
	case ctx.Err() != nil:
		return nil, exitError{exitInterrupted, "interrupted before the run started: -s/--script: " + err.Error()}
	}
	return nil, usageError{"-s/--script: " + err.Error()}
}

// scriptOutput is where the script's print() and io.write() go, in every
// hook: stdout with text output, as in wrk, and stderr when stdout carries
// JSON or markdown, which they would corrupt (`--format json | jq`).
func (l *loader) scriptOutput() io.Writer {
	if l.opts.format != "text" {
		return l.stderr
	}
	return l.stdout
}

// scriptTarget is what the script sees as wrk.scheme, host, port, path,
// method, headers, body and shard before its top level runs.
func scriptTarget(cfg *engine.Config) script.Target {
	var headers []script.Header
	for _, h := range cfg.Headers {
		headers = append(headers, script.Header{Name: h.Name, Value: h.Value})
	}
	t := script.NewTarget(cfg.URL, engine.Method(cfg.Method, len(cfg.Body) > 0), headers, cfg.Body)
	t.ShardIndex, t.ShardCount = cfg.Shard.Index, cfg.Shard.Count
	return t
}

// scriptDone runs the script's done(), after the results are written.
func (l *loader) scriptDone(cfg engine.Config, res stats.Result) error {
	if cfg.Script == nil {
		return nil
	}
	return cfg.Script.Finish(res)
}
