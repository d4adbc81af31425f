package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/machine"
	"github.com/pummel-dev/pummel/server"
	"github.com/pummel-dev/pummel/stats"
	"github.com/urfave/cli/v2"
)

// loader runs the load command (and demo) with the parsed options.
type loader struct {
	opts           *options
	args           []string // the command line as typed, for the record
	stdout, stderr io.Writer
}

// run is the action of `pummel [run] URL`.
func (l *loader) run(c *cli.Context) error {
	if c.NArg() > 1 {
		return usageError{fmt.Sprintf("unexpected argument %q: give one URL (flags may come before or after it)", c.Args().Get(1))}
	}
	l.opts.target = c.Args().First()
	return l.load(c)
}

// demo is the action of `pummel demo`: the built-in target in-process,
// loaded for 3 seconds unless flags say otherwise.
func (l *loader) demo(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageError{fmt.Sprintf("demo: unexpected argument %q: demo loads its own target", c.Args().First())}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("demo: starting the built-in target: %w", err)
	}
	srv := server.New()
	go srv.Serve(ln) //nolint:errcheck // ends with Shutdown below
	defer srv.Shutdown()
	if !c.IsSet("duration") && !c.IsSet("requests") {
		l.opts.duration = "3s"
	}
	if !c.IsSet("connections") {
		l.opts.connections = "32"
	}
	l.opts.latency = true
	l.opts.target = "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(l.stderr, "pummel demo: built-in target at %s, in this process (it shares the CPU with the client)\n", l.opts.target)
	return l.load(c)
}

// load runs the engine and writes the result everywhere it was asked for.
func (l *loader) load(c *cli.Context) error {
	cfg, err := l.opts.config()
	if err != nil {
		return err
	}
	if err := l.opts.outputFormat(); err != nil {
		return err
	}
	if err := engine.RaiseFileLimit(cfg.Connections); err != nil {
		return exitError{exitFailed, err.Error()}
	}
	res, err := engine.Run(c.Context, cfg)
	if err != nil {
		if c.Context.Err() != nil {
			return exitError{exitInterrupted, "interrupted before the run started"}
		}
		if errors.Is(err, engine.ErrUnreachable) {
			return exitError{exitFailed, err.Error()} // names host:port, never credentials
		}
		return usageError{err.Error()}
	}
	res.Config = l.opts.runConfig(cfg, l.args)
	res.Environment = machine.Describe(machine.Version(version), time.Now())
	if err := l.write(res); err != nil {
		return exitError{exitFailed, err.Error()}
	}
	if res.Interrupted {
		return exitError{code: exitInterrupted}
	}
	return nil
}

// write renders res to stdout in --format and to every -o file.
func (l *loader) write(res stats.Result) error {
	if err := renderers[l.opts.format](l.stdout, res, l.opts); err != nil {
		return fmt.Errorf("writing the result: %w", err)
	}
	for _, path := range l.opts.outputs.Value() {
		if err := writeFile(path, res, l.opts); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path string, res stats.Result, o *options) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("-o %s: %w", path, err)
	}
	err = renderers[formatOf(path)](f, res, o)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("-o %s: %w", path, err)
	}
	return nil
}

// renderers maps --format names to the stats renderers.
var renderers = map[string]func(io.Writer, stats.Result, *options) error{
	"text": func(w io.Writer, r stats.Result, o *options) error {
		return stats.WriteText(w, r, stats.TextOptions{Latency: o.latency})
	},
	"json":     func(w io.Writer, r stats.Result, _ *options) error { return stats.WriteJSON(w, r) },
	"markdown": func(w io.Writer, r stats.Result, _ *options) error { return stats.WriteMarkdown(w, r) },
}
