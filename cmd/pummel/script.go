package main

import (
	"io"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/script"
	"github.com/pummel-dev/pummel/stats"
)

// loadScript loads -s with the arguments after --; a script that does not
// compile or fails at its top level is bad input, named in one line.
func (o *options) loadScript(cfg *engine.Config) (*script.Program, error) {
	if o.script == "" {
		if len(o.scriptArgs) > 0 {
			return nil, usageError{"unexpected arguments after the URL: script arguments need -s/--script"}
		}
		return nil, nil
	}
	p, err := script.Load(o.script, o.scriptArgs, engine.ScriptTarget(cfg))
	if err != nil {
		return nil, usageError{"-s/--script: " + err.Error()}
	}
	return p, nil
}

// scriptDone runs the script's done(); what it prints goes to stdout with
// text output, and to stderr when stdout carries JSON or markdown.
func (l *loader) scriptDone(cfg engine.Config, res stats.Result) error {
	if cfg.Script == nil {
		return nil
	}
	var out io.Writer = l.stdout
	if l.opts.format != "text" {
		out = l.stderr
	}
	return engine.ScriptDone(cfg.Script, res, out)
}
