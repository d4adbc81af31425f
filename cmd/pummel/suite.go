package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/pummel-dev/pummel/machine"
	"github.com/pummel-dev/pummel/suite"
	"github.com/urfave/cli/v2"
)

// defaultSuiteDir is where `pummel suite` writes without -o.
const defaultSuiteDir = "suite-results"

// suiteOptions holds the suite command's flags.
type suiteOptions struct {
	dir   string
	runs  int
	quiet bool
}

// suiteCommand is `pummel suite PLAN.yaml`: a benchmark plan, its runs,
// and the results written as JSON and markdown.
func suiteCommand(stdout, stderr io.Writer) *cli.Command {
	var o suiteOptions
	return &cli.Command{
		Name:      "suite",
		Usage:     "run a benchmark plan: a server in modes, fresh processes per run, named operations; writes JSON and markdown",
		ArgsUsage: "PLAN.yaml",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: defaultSuiteDir, Destination: &o.dir, Usage: "write suite.json, suite.md and the server logs to `DIR`"},
			&cli.IntFlag{Name: "runs", Destination: &o.runs, DefaultText: "the plan's", Usage: "start `N` fresh server processes per mode, instead of the plan's runs"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Destination: &o.quiet, Usage: "no line on stderr as each run ends"},
		},
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError{"suite: give one plan file (pummel suite PLAN.yaml)"}
			}
			return o.run(c, c.Args().First(), stdout, stderr)
		},
	}
}

// run loads the plan, runs it, writes everything, then reports failures.
func (o *suiteOptions) run(c *cli.Context, path string, stdout, stderr io.Writer) error {
	if o.runs < 0 || o.runs > suite.MaxRuns {
		return usageError{fmt.Sprintf("--runs: %d, want between 1 and %d", o.runs, suite.MaxRuns)}
	}
	s, err := suite.Load(path)
	if err != nil {
		return usageError{err.Error()}
	}
	opt := suite.Options{Dir: o.dir, Runs: o.runs, Version: machine.Version(version)}
	if !o.quiet {
		opt.Progress = stderr
	}
	rep, runErr := suite.Run(c.Context, s, opt)
	if err := writeSuite(rep, o.dir, stdout); err != nil {
		return exitError{exitFailed, err.Error()}
	}
	return suiteOutcome(rep, runErr, o.dir)
}

// suiteOutcome is the exit: 130 when interrupted, 1 when a run could not
// be carried out or a check failed, else 0.
func suiteOutcome(rep *suite.Report, runErr error, dir string) error {
	switch {
	case rep.Interrupted:
		return exitError{code: exitInterrupted}
	case runErr != nil:
		return exitError{exitFailed, "suite: " + runErr.Error()}
	case rep.CheckFailures > 0:
		return exitError{exitFailed, fmt.Sprintf("suite: %d responses failed a check (see %s)", rep.CheckFailures, filepath.Join(dir, "suite.md"))}
	}
	return nil
}

// writeSuite writes the report to DIR/suite.json and DIR/suite.md, and
// its summary to stdout.
func writeSuite(rep *suite.Report, dir string, stdout io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("-o %s: %w", dir, err)
	}
	files := []struct {
		name  string
		write func(io.Writer, *suite.Report) error
	}{{"suite.json", suite.WriteJSON}, {"suite.md", suite.WriteMarkdown}}
	for _, f := range files {
		if err := writeReportFile(filepath.Join(dir, f.name), rep, f.write); err != nil {
			return err
		}
	}
	if err := suite.WriteText(stdout, rep); err != nil {
		return err
	}
	_, err := fmt.Fprintf(stdout, "\nWritten: %s, %s\n", filepath.Join(dir, "suite.json"), filepath.Join(dir, "suite.md"))
	return err
}

func writeReportFile(path string, rep *suite.Report, write func(io.Writer, *suite.Report) error) error {
	return createFile("-o", path, func(w io.Writer) error { return write(w, rep) })
}
