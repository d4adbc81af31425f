package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/render"
	"github.com/pummel-dev/pummel/threshold"
	"github.com/urfave/cli/v2"
)

// compareFormats are the --format values compare writes (completion
// offers these).
var compareFormats = []string{"text", "markdown"}

// compareCommand is `pummel compare BASE.json NEW.json`, or several files
// per side separated by "vs"; with --max-regression it fails (exit 3)
// when NEW is worse than BASE by more than the bound.
func compareCommand(stdout io.Writer) *cli.Command {
	var format string
	var bounds cli.StringSlice
	return &cli.Command{
		Name:      "compare",
		Usage:     "show two results side by side with ratios; several runs per side: BASE… vs NEW…",
		ArgsUsage: "BASE.json NEW.json | BASE.json… vs NEW.json…",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Destination: &format, Usage: "write `FORMAT` to stdout: text or markdown"},
			&cli.StringSliceFlag{Name: "max-regression", Destination: &bounds,
				Usage: "exit 3 when NEW is worse than BASE by more than `[FIGURE=]P%`: requests/s by default, or a threshold's figure (p99=10%); repeatable"},
		},
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if !slices.Contains(compareFormats, format) {
				return usageError{fmt.Sprintf("--format: %q is not one of %s", format, strings.Join(compareFormats, ", "))}
			}
			regressions, err := parseRegressions(bounds.Value())
			if err != nil {
				return err
			}
			basePaths, newPaths, err := splitSides(c.Args().Slice())
			if err != nil {
				return err
			}
			base, _, _, err := readResults(basePaths, nil, c.App.Reader, c.App.ErrWriter)
			if err != nil {
				return err
			}
			next, _, _, err := readResults(newPaths, nil, c.App.Reader, c.App.ErrWriter)
			if err != nil {
				return err
			}
			lines, err := checkRegressions(regressions, base, next)
			if err != nil {
				return err
			}
			write := render.WriteComparison
			if format == "markdown" {
				write = render.WriteComparisonMarkdown
			}
			if err := write(stdout, base, next); err != nil {
				return err
			}
			if len(lines) > 0 {
				return exitError{exitCondition, strings.Join(lines, "\n")}
			}
			return nil
		},
	}
}

// parseRegressions reads every --max-regression.
func parseRegressions(bounds []string) ([]threshold.Regression, error) {
	var out []threshold.Regression
	for _, b := range bounds {
		g, err := threshold.ParseRegression(b)
		if err != nil {
			return nil, usageError{fmt.Sprintf("--max-regression %q: %v", b, err)}
		}
		out = append(out, g)
	}
	return out, nil
}

// checkRegressions returns one line per regression past its bound; a
// figure a side lacks is bad input.
func checkRegressions(gs []threshold.Regression, base, next []stats.Result) ([]string, error) {
	var lines []string
	for _, g := range gs {
		line, err := g.Check(base, next)
		if err != nil {
			return nil, usageError{fmt.Sprintf("--max-regression %q: %v", g, err)}
		}
		if line != "" {
			lines = append(lines, "compare: "+line)
		}
	}
	return lines, nil
}

// splitSides reads "A B" or "A1 A2 vs B1 B2".
func splitSides(args []string) (base, next []string, err error) {
	if i := slices.Index(args, "vs"); i >= 0 {
		base, next = args[:i], args[i+1:]
	} else if len(args) == 2 {
		base, next = args[:1], args[1:]
	}
	if len(base) == 0 || len(next) == 0 {
		return nil, nil, usageError{"compare: give BASE.json NEW.json, or BASE.json… vs NEW.json…"}
	}
	return base, next, nil
}
