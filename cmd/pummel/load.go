package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/render"
	"github.com/pummel-dev/pummel/target"
	"github.com/urfave/cli/v2"
)

// loader runs the load command (and demo) with the parsed options.
type loader struct {
	opts           *options
	rec            *commandLine // the command line as outputs show it
	stdout, stderr io.Writer

	shape stats.Config // what runs, as the header and every output say it
	// header, if set, writes the header instead of the run's (a capacity
	// search's).
	header    func(io.Writer) error
	progress  string // --progress, -q read
	announced bool   // the header was written when the load started
	fifos     fifos  // the output files that are FIFOs, open until written
	// export is --export as read (nil without it), exports the export
	// under way once the load is open.
	export  *exportPlan
	exports *exporting
}

// run is the action of `pummel [run] URL`.
func (l *loader) run(c *cli.Context) error {
	if err := l.readArgs(c); err != nil {
		return err
	}
	return l.load(c)
}

// readArgs reads the URL and the script's arguments after it.
func (l *loader) readArgs(c *cli.Context) error {
	l.opts.target = c.Args().First()
	l.opts.scriptArgs = c.Args().Tail()
	if len(l.opts.scriptArgs) > 0 && l.opts.scriptArgs[0] == "--" {
		l.opts.scriptArgs = l.opts.scriptArgs[1:]
	}
	if l.opts.quiet && isRate(l.opts.target) {
		return usageError{quietHint}
	}
	if len(l.opts.scriptArgs) > 0 && l.opts.script == "" {
		if l.opts.quiet && isRate(l.opts.scriptArgs[0]) {
			return usageError{quietHint}
		}
		return usageError{fmt.Sprintf("unexpected argument %q: give one URL (flags may come before or after it)", l.opts.scriptArgs[0])}
	}
	return nil
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
	srv := target.New()
	go srv.Serve(ln) //nolint:errcheck // ends with Shutdown below
	defer srv.Shutdown()
	if c.IsSet("requests") && !c.IsSet("duration") {
		l.opts.duration = "" // -n alone: as many requests as asked, however long
	}
	l.opts.target = "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(l.stderr, "pummel demo: built-in target at %s, in this process (it shares the CPU with the client)\n", l.opts.target)
	return l.load(c)
}

// load runs the engine (with the server watched or started, as asked) and
// writes the result everywhere it was asked for.
func (l *loader) load(c *cli.Context) error {
	outs := append(l.opts.files(), l.opts.logOutputs()...)
	s, err := l.prepare(c, outs, sessionRules{thresholds: (*options).thresholds, check: l.checkRuns})
	if err != nil {
		return err
	}
	defer l.close(s)
	if l.opts.dryRun {
		return l.dryRun(s.cfg)
	}
	if err := l.open(c, s); err != nil {
		return err
	}
	cfg := s.cfg
	if s.progress != nil {
		cfg.Progress = s.progress.show
	}
	requests := l.opts.startRequestLog(&cfg, l.rec.text, l.fifos.take(l.opts.logRequests))
	var res stats.Result
	if s.plan.exec != nil {
		res, err = l.execRuns(c.Context, cfg, s.plan)
	} else {
		res, err = l.watchedLoad(c.Context, cfg, s.plan)
	}
	s.progress.clear()
	logErr := requests.finish(&res)
	if err != nil {
		if logErr != nil { // the load's error decides the exit; the log's is said too
			fmt.Fprintf(l.stderr, "pummel: %s\n", l.rec.text(logErr.Error()))
		}
		return err
	}
	l.exports.finish(&res)
	l.describe(s, &res)
	return resultExit(res, errors.Join(l.writeResult(l.opts.files(), res), l.scriptDone(cfg, res), logErr))
}

// checkRuns refuses what --runs cannot repeat: one request log for
// several runs, one start time for several.
func (l *loader) checkRuns(cfg engine.Config, plan watchPlan) error {
	if l.opts.logRequests != "" && plan.runs > 1 {
		return usageError{"--log-requests: not with --runs: the runs' requests would share one log"}
	}
	return checkStartRuns(cfg, plan.runs)
}

// loadError maps the engine's error to an exit code.
func loadError(ctx context.Context, err error) error {
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil && !errors.Is(err, context.Canceled):
		return exitError{exitInterrupted, "interrupted before the run started: " + err.Error()} // a script's init(), say
	case ctx.Err() != nil:
		return exitError{exitInterrupted, "interrupted before the run started"}
	case errors.Is(err, engine.ErrUnreachable):
		return exitError{exitFailed, err.Error() + certificateHint(err)} // names host:port, never credentials
	case errors.As(err, new(exitError)):
		return err // it says its own exit code (a capacity search that could not be carried out)
	}
	// A setting refused at Run, not at parse (a --start-at that passed
	// while --exec waited for readiness): name the flag, as at parse.
	return flagError(err)
}

// certificateHint says what to do when the server's certificate could not
// be verified (an unknown authority, another host's name, expired).
func certificateHint(err error) string {
	var rejected *tls.CertificateVerificationError
	var otherName x509.HostnameError
	switch {
	case !errors.As(err, &rejected):
		return ""
	case errors.As(err, &otherName):
		return "; use a host name the certificate holds, or --insecure to skip verification"
	}
	return "; to trust it, pass --cacert FILE (the PEM of the CA that signed it), or --insecure to skip verification"
}

// announce writes the header, what runs against what, once, as the load
// starts (docs/output.md; wrk buffers it until the end when stdout is a pipe).
// In text it begins the result on stdout, as wrk's does. A JSON or
// markdown stdout must hold the document alone, so there it goes to
// stderr, where the live progress is too and a CI log still shows what
// runs; --progress never (-q), which silences stderr's progress,
// silences it as well.
func (l *loader) announce() {
	switch {
	case l.announced:
		return // said already, before the first of --runs
	case l.opts.format == "text":
		l.announced = true
		// A failed write (a closed stdout) shows again, and is reported,
		// when the result is written.
		l.writeHeader(l.stdout) //nolint:errcheck // see above
	case l.progress != progressNever:
		l.announced = true
		l.writeHeader(l.stderr) //nolint:errcheck // stderr is best effort
	}
}

// writeHeader writes the header that says what runs.
func (l *loader) writeHeader(w io.Writer) error {
	var err error
	if l.header != nil {
		err = l.header(w)
	} else {
		err = render.WriteHeader(w, l.shape)
	}
	if err != nil {
		return err
	}
	return l.export.writeLine(w)
}

// writeStdout renders res to stdout in --format; text leaves out the
// header that announce wrote there.
func (l *loader) writeStdout(res stats.Result) error {
	if l.opts.format == "text" {
		return render.WriteText(l.stdout, res, render.TextOptions{Latency: l.opts.latency, SkipHeader: l.announced})
	}
	return renderers[l.opts.format](l.stdout, res, l.opts)
}

// renderers maps --format names to the stats renderers.
var renderers = map[string]func(io.Writer, stats.Result, *options) error{
	"text": func(w io.Writer, r stats.Result, o *options) error {
		return render.WriteText(w, r, render.TextOptions{Latency: o.latency})
	},
	"json":     func(w io.Writer, r stats.Result, _ *options) error { return stats.WriteJSON(w, r) },
	"markdown": func(w io.Writer, r stats.Result, _ *options) error { return render.WriteMarkdown(w, r) },
}
