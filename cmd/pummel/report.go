package main

import (
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/pummel-dev/pummel/stats"
	"github.com/urfave/cli/v2"
)

// reportCommand is `pummel report FILE.json…`: render saved results,
// merged exactly when there are several.
func reportCommand(stdout io.Writer) *cli.Command {
	var o options
	var parallel bool
	return &cli.Command{
		Name:      "report",
		Usage:     "render saved JSON results, merging several (histograms merged, never averaged)",
		ArgsUsage: "FILE.json…",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "parallel", Destination: &parallel, Usage: "the results ran side by side (several machines): longest duration, rates add up; default: one after another"},
			&cli.StringFlag{Name: "format", Value: "text", Destination: &o.format, Usage: "text, json or markdown"},
			&cli.StringSliceFlag{Name: "output", Aliases: []string{"o"}, Destination: &o.outputs, Usage: "also write to `FILE` (.json, .md, .txt)"},
			&cli.BoolFlag{Name: "latency", Destination: &o.latency, Usage: "print the latency distribution"},
		},
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageError{"report: give one or more saved results (pummel -o result.json …)"}
			}
			if err := o.outputFormat(); err != nil {
				return err
			}
			rs, err := readResults(c.Args().Slice())
			if err != nil {
				return err
			}
			how := stats.Sequential
			if parallel {
				how = stats.Parallel
			}
			res, err := stats.Combine(rs, how)
			if err != nil {
				return usageError{fmt.Sprintf("report: %v", err)}
			}
			if len(rs) == 1 {
				res = rs[0] // as saved, stages and all
			}
			l := &loader{opts: &o, stdout: stdout}
			return l.write(res)
		},
	}
}

// readResults reads saved JSON results; a file that cannot be read or is
// not a result is bad input, named in one line.
func readResults(paths []string) ([]stats.Result, error) {
	var rs []stats.Result
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, usageError{err.Error()}
		}
		r, err := stats.ReadJSON(f)
		f.Close()
		if err != nil {
			return nil, usageError{fmt.Sprintf("%s: %v", path, err)}
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// compareCommand is `pummel compare BASE.json NEW.json`, or several files
// per side separated by "vs".
func compareCommand(stdout io.Writer) *cli.Command {
	var format string
	return &cli.Command{
		Name:         "compare",
		Usage:        "show two results side by side with ratios; several runs per side: BASE… vs NEW…",
		ArgsUsage:    "BASE.json NEW.json | BASE.json… vs NEW.json…",
		Flags:        []cli.Flag{&cli.StringFlag{Name: "format", Value: "text", Destination: &format, Usage: "text or markdown"}},
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			basePaths, newPaths, err := splitSides(c.Args().Slice())
			if err != nil {
				return err
			}
			base, err := readResults(basePaths)
			if err != nil {
				return err
			}
			next, err := readResults(newPaths)
			if err != nil {
				return err
			}
			switch format {
			case "text":
				return stats.WriteComparison(stdout, base, next)
			case "markdown":
				return stats.WriteComparisonMarkdown(stdout, base, next)
			}
			return usageError{fmt.Sprintf("--format: %q is not one of text, markdown", format)}
		},
	}
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
