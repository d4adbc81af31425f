package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/environment"
	"github.com/pummel-dev/pummel/export"
	"github.com/pummel-dev/pummel/measure"
	"github.com/pummel-dev/pummel/suite"
	"github.com/urfave/cli/v2"
)

// defaultSuiteDir is where `pummel suite` writes without -o.
const defaultSuiteDir = "suite-results"

// suiteOptions holds the suite command's flags.
type suiteOptions struct {
	dir    string
	runs   int
	quiet  bool
	export exportOptions
}

// suiteCommand is `pummel suite PLAN.yaml`: a benchmark plan, its runs,
// and the results written as JSON and markdown.
func suiteCommand(rec *commandLine, stdout, stderr io.Writer) *cli.Command {
	var o suiteOptions
	return &cli.Command{
		Name:      "suite",
		Usage:     "run a benchmark plan: a server in modes, fresh processes per run, named operations; writes JSON and markdown",
		ArgsUsage: "PLAN.yaml",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: defaultSuiteDir, Destination: &o.dir, Usage: "write suite.json, suite.md and the server logs to `DIR`"},
			&cli.IntFlag{Name: "runs", Destination: &o.runs, DefaultText: "the plan's", Usage: "start `N` fresh server processes per mode, instead of the plan's runs"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Destination: &o.quiet, Usage: "no line on stderr as each run ends"},
		}, exportFlags(&o.export)...),
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError{"suite: give one plan file (pummel suite PLAN.yaml)"}
			}
			return o.run(c, c.Args().First(), rec, stdout, stderr)
		},
	}
}

// run loads the plan and checks the output directory, runs the plan,
// writes everything it can, then reports what failed.
func (o *suiteOptions) run(c *cli.Context, path string, rec *commandLine, stdout, stderr io.Writer) error {
	if o.runs < 0 || o.runs > measure.MaxRuns {
		return usageError{fmt.Sprintf("--runs: %d, want between 1 and %d", o.runs, measure.MaxRuns)}
	}
	s, err := suite.Load(c.Context, path)
	if err != nil && c.Context.Err() != nil {
		return interruptedReading("the plan's body files")
	}
	if err != nil {
		return usageError{err.Error()}
	}
	if err := suite.CheckDir(o.dir); err != nil {
		return usageError{fmt.Sprintf("-o %s: %v", o.dir, err)}
	}
	opt := suite.Options{Dir: o.dir, Runs: o.runs, Version: environment.Version(version)}
	if !o.quiet {
		opt.Progress = stderr
	}
	plan, err := o.export.plan(c, engine.Config{}, rec)
	if err != nil {
		return err
	}
	x := plan.start()
	defer x.stop()
	if x != nil {
		opt.Observe = func(cfg *engine.Config, w *measure.Watch, id suite.LoadID) {
			x.observe(cfg, w, export.Label{Name: "mode", Value: id.Mode}, export.Label{Name: "operation", Value: id.Operation},
				export.Label{Name: "run_index", Value: strconv.Itoa(id.Run)})
		}
		if !o.quiet {
			plan.writeLine(stderr) //nolint:errcheck // stderr is best effort
		}
	}
	rep, runErr := suite.Run(c.Context, s, opt)
	var exportWarnings []string
	rep.Export, exportWarnings = x.report()
	for _, w := range exportWarnings {
		fmt.Fprintf(stderr, "pummel: suite: %s\n", rec.text(w))
	}
	written, fileErrs := suite.WriteFiles(o.dir, rep)
	var errs []error
	for _, err := range fileErrs {
		errs = append(errs, fmt.Errorf("-o %w", err))
	}
	if err := writeSuiteSummary(stdout, rep, written); err != nil {
		errs = append(errs, fmt.Errorf("standard output: %w", err))
	}
	return suiteOutcome(rep, runErr, errs, stderr)
}

// suiteOutcome prints one line per output that could not be written and
// decides the exit: 130 when interrupted; 1 when a run could not be
// carried out or an output not written; 3, with one line per operation
// and mode whose responses failed a check and one per failed threshold,
// when a check or a threshold failed; else 0.
func suiteOutcome(rep *suite.Result, runErr error, writeErrs []error, stderr io.Writer) error {
	for _, err := range writeErrs {
		fmt.Fprintf(stderr, "pummel: %v\n", err)
	}
	failures := rep.Failures()
	switch {
	case rep.Interrupted:
		return exitError{code: exitInterrupted}
	case runErr != nil:
		return exitError{exitFailed, "suite: " + runErr.Error()}
	case len(writeErrs) > 0:
		return exitError{code: exitFailed}
	case len(failures) > 0:
		for _, line := range failures {
			fmt.Fprintf(stderr, "pummel: suite: %s\n", line)
		}
		return exitError{code: exitCondition}
	}
	return nil
}

// writeSuiteSummary writes the result's summary and the files written.
func writeSuiteSummary(stdout io.Writer, rep *suite.Result, written []string) error {
	if err := suite.WriteText(stdout, rep); err != nil {
		return err
	}
	if len(written) == 0 {
		return nil
	}
	_, err := fmt.Fprintf(stdout, "\nWritten: %s\n", strings.Join(written, ", "))
	return err
}
