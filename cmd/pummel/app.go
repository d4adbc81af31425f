package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
)

// Exit codes.
const (
	exitOK          = 0
	exitFailed      = 1 // the run could not be carried out
	exitUsage       = 2 // bad usage or input
	exitCondition   = 3 // the run finished but a pass/fail condition failed
	exitInterrupted = 130
)

// exitError ends pummel with a code; an empty msg prints nothing.
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }

// run is pummel: it parses args, does the work and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	rec := &commandLine{}
	out := &stdoutWriter{w: stdout} // for -h as for every command
	app := newApp(rec, out, stderr)
	scanned := scanArgs(args, specOf(flagsFor(app, args)), commandNames(app))
	*rec = recordArgs(scanned)
	err := unknownCommand(scanned, app)
	if cmd, asked := askedHelp(app, scanned); err == nil && asked {
		err = writeHelp(out, app, cmd)
	} else if err == nil {
		err = app.RunContext(ctx, append([]string{"pummel"}, normalizeArgs(scanned)...))
	}
	return exitCode(err, *rec, stderr)
}

// exitCode prints err, one line per failure with secrets scrubbed, and
// returns its exit code.
func exitCode(err error, rec commandLine, stderr io.Writer) int {
	var usage usageError
	var exit exitError
	code, msg := exitFailed, ""
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &usage):
		code, msg = exitUsage, usage.msg
	case errors.As(err, &exit):
		code, msg = exit.code, exit.msg
	default:
		msg = err.Error()
	}
	if msg != "" {
		for line := range strings.SplitSeq(msg, "\n") {
			fmt.Fprintf(stderr, "pummel: %s\n", rec.text(line))
		}
	}
	return code
}

// newApp builds the command tree; rec is filled in before it runs.
func newApp(rec *commandLine, stdout, stderr io.Writer) *cli.App {
	var o options
	load := &loader{opts: &o, rec: rec, stdout: stdout, stderr: stderr}
	app := &cli.App{
		Name:  "pummel",
		Usage: "an HTTP/1.1 and HTTP/2 load generator",
		UsageText: "pummel [run] [flags] URL [-- SCRIPT ARGS]\n" +
			"pummel COMMAND [flags] [ARGS]    (pummel help COMMAND, or pummel COMMAND -h, for one)",
		Description: "pummel loads an HTTP/1.1 or HTTP/2 server as wrk, ab, hey and Vegeta do, with their command lines, " +
			"counts every request once, watches the server under test (RSS, CPU, startup) and writes results " +
			"as text, JSON or markdown. Exit codes: 0 done; 1 the run could not be carried out; " +
			"2 bad usage or input; 3 a --threshold (or a plan's check) failed; 130 interrupted.",
		HideVersion: true, // --version and `pummel version` print more than urfave/cli's
		Flags:       append(loadFlags(&o), versionFlag()),
		Action: func(c *cli.Context) error {
			if c.Bool("version") {
				return writeVersion(stdout)
			}
			return load.run(c)
		},
		Writer:                    stdout,
		ErrWriter:                 stderr,
		OnUsageError:              onUsageError,
		ExitErrHandler:            func(*cli.Context, error) {}, // run() decides the exit code
		DisableSliceFlagSeparator: true,                         // "-H 'Accept: a, b'" is one header
		Commands: []*cli.Command{
			{Name: "run", Usage: "run a load test (the default command)", ArgsUsage: "URL [-- SCRIPT ARGS]",
				Flags: loadFlags(&o), Action: load.run, OnUsageError: onUsageError},
			{Name: "demo", Usage: "load the built-in target, started in-process, for 3 seconds over 32 connections",
				Flags: demoFlags(&o), Action: load.demo, OnUsageError: onUsageError},
			capacityCommand(load),
			serveCommand(stderr),
			reportCommand(stdout),
			compareCommand(stdout),
			suiteCommand(rec, stdout, stderr),
			versionCommand(stdout),
			completionCommand(stdout),
			manCommand(stdout),
		},
	}
	addHelp(app, stdout)
	return app
}

// onUsageError turns urfave/cli's parse errors into one line, exit 2.
// An unknown flag gets a hint: another tool's spelling of one of pummel's,
// or the real flag it misspells.
func onUsageError(c *cli.Context, err error, _ bool) error {
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
		flags := c.App.Flags
		if c.Command != nil && len(c.Command.Flags) > 0 {
			flags = c.Command.Flags
		}
		return usageError{unknownFlag(name, flags)}
	}
	return usageError{err.Error()}
}

// flagsFor returns the flags of the command args name, or the root's.
func flagsFor(app *cli.App, args []string) []cli.Flag {
	if len(args) > 0 {
		if c := app.Command(args[0]); c != nil {
			return c.Flags
		}
	}
	return app.Flags
}

func commandNames(app *cli.App) map[string]bool {
	names := map[string]bool{"help": true}
	for _, c := range app.Commands {
		for _, n := range c.Names() {
			names[n] = true
		}
	}
	return names
}
