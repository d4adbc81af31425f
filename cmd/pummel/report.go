package main

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pummel-dev/pummel/chart"
	"github.com/pummel-dev/pummel/stats"
	"github.com/urfave/cli/v2"
)

// reportCommand is `pummel report FILE.json…`: render saved results,
// merged exactly when there are several.
func reportCommand(stdout io.Writer) *cli.Command {
	var o options
	var parallel bool
	var plots reportPlots
	return &cli.Command{
		Name:      "report",
		Usage:     "render saved JSON results, merging several (histograms merged, never averaged)",
		ArgsUsage: "FILE.json… (- for standard input)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "parallel", Destination: &parallel, Usage: "the results ran side by side (several machines): longest duration, rates add up; default: one after another"},
			&cli.StringFlag{Name: "format", Value: "text", Destination: &o.format, Usage: "write `FORMAT` to stdout: text, json or markdown"},
			&cli.StringSliceFlag{Name: "output", Aliases: []string{"o"}, Destination: &o.outputs, Usage: "also write to `FILE` (.json, .md, .txt)"},
			&cli.BoolFlag{Name: "latency", Destination: &o.latency, Usage: "print the latency distribution"},
			&cli.StringFlag{Name: "plot", Destination: &plots.dir, Usage: "write charts (SVG and PNG) of each file into `DIR`"},
			&cli.BoolFlag{Name: "plots", Destination: &plots.markdown, Usage: "with -o FILE.md: write charts into FILE-charts/ next to it and link them from the markdown"},
			&cli.StringSliceFlag{Name: "label", Destination: &plots.labels, Usage: "name the next file's lines in the charts' legends (and chart file names) `LABEL`; one per file, in order (repeatable)"},
		},
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageError{"report: give one or more saved results (pummel -o result.json …)"}
			}
			if err := o.outputFormat(); err != nil {
				return err
			}
			if err := plots.check(o.outputs.Value(), c.NArg()); err != nil {
				return err
			}
			outs := o.files()
			if err := checkOutputs(append(outs, plots.dirs(o.outputs.Value())...)); err != nil {
				return err
			}
			l := &loader{opts: &o, stdout: stdout}
			var err error
			if l.fifos, err = openFIFOs(c.Context, outs, fifoWait); err != nil {
				return err
			}
			defer l.fifos.close()
			rs, names, files, err := readResults(c.Args().Slice(), plots.labels.Value(), c.App.Reader, c.App.ErrWriter)
			if err != nil {
				return err
			}
			how := stats.Sequential
			if parallel {
				how = stats.Parallel
			}
			res, err := stats.Combine(rs, how)
			if err != nil {
				return usageError{"report: " + combineError(err, rs, files)}
			}
			if differ := stats.LoadDifferences(rs); len(differ) > 0 && plots.dir != "" && len(outs) == 0 && !c.IsSet("format") {
				return plots.drawOnly(c.App.ErrWriter, named(names, rs), differ)
			}
			warnMerge(c.App.ErrWriter, rs, res)
			// The charts come first: the markdown links those written.
			links, chartErr := plots.write(named(names, rs), o.outputs.Value())
			if res.Capacity != nil { // one capacity search: its steps and verdict
				return errors.Join(chartErr, l.writeCapacity(l.capacityFiles(), res))
			}
			return errors.Join(chartErr, l.writeResult(linkCharts(outs, links), res))
		},
	}
}

// combineError is the message of err, stats.Combine's error for rs, read
// from files: parts whose requests differ are named by their files.
func combineError(err error, rs []stats.Result, files []string) string {
	var differ *stats.RequestsDiffer
	if !errors.As(err, &differ) {
		return err.Error()
	}
	part := func(index int) string {
		for i, r := range rs {
			if r.Shard != nil && r.Shard.Index == index {
				return fmt.Sprintf("%s (shard %d)", files[i], index)
			}
		}
		return fmt.Sprintf("shard %d", index)
	}
	return differ.Naming(part(differ.First), part(differ.Second))
}

// reportPlots is what `pummel report` was asked to chart.
type reportPlots struct {
	dir      string          // --plot: write the charts here
	markdown bool            // --plots: chart next to every -o FILE.md and link from it
	labels   cli.StringSlice // --label: the legend names of the files, in order
}

// check rejects --plots without a markdown file to link the charts from,
// and labels that are not one per file of the files given.
func (p reportPlots) check(outputs []string, files int) error {
	if p.markdown && !slices.ContainsFunc(outputs, isMarkdown) {
		return usageError{"--plots: give -o FILE.md; the charts go next to it (or use --plot DIR)"}
	}
	n := len(p.labels.Value())
	if n > 0 && p.dir == "" && !p.markdown {
		return usageError{"--label: names the lines of charts; give --plot DIR or --plots"}
	}
	if n > 0 && n != files {
		return usageError{fmt.Sprintf("--label: %d for %d files; give one per file, in order", n, files)}
	}
	return nil
}

// dirs lists the chart directories for checkOutputs: --plot's, and with
// --plots, FILE-charts/ next to each markdown output.
func (p reportPlots) dirs(outputs []string) []output {
	var outs []output
	if p.dir != "" {
		outs = append(outs, output{flag: "--plot", path: p.dir, dir: true})
	}
	for _, md := range outputs {
		if p.markdown && isMarkdown(md) {
			outs = append(outs, output{flag: "--plots", path: chartsDir(md), dir: true})
		}
	}
	return outs
}

// chartsDir is where --plots draws the charts of a markdown output.
func chartsDir(md string) string { return strings.TrimSuffix(md, filepath.Ext(md)) + "-charts" }

// write draws the charts of results into --plot's directory and, with
// --plots, into FILE-charts/ next to each markdown output, returning the
// charts drawn for each markdown output.
func (p reportPlots) write(results []chart.Named, outputs []string) (map[string][]string, error) {
	var errs []error
	if p.dir != "" {
		if _, err := chart.WriteAll(p.dir, results); err != nil {
			errs = append(errs, fmt.Errorf("--plot: %w", err))
		}
	}
	links := map[string][]string{}
	for _, md := range outputs {
		if !p.markdown || !isMarkdown(md) {
			continue
		}
		paths, err := chart.WriteAll(chartsDir(md), results)
		if err != nil {
			errs = append(errs, fmt.Errorf("--plots: %w", err))
		}
		links[md] = paths
	}
	return links, errors.Join(errs...)
}

// drawOnly draws the charts of results of different loads side by side,
// and says why no merged report follows: it would describe none of them.
func (p reportPlots) drawOnly(stderr io.Writer, results []chart.Named, differ []string) error {
	if _, err := p.write(results, nil); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "pummel: charts of %d results written to %s; no merged report, as their loads differ (%s)\n",
		len(results), p.dir, strings.Join(differ, ", "))
	return nil
}

// linkCharts makes each markdown output end with a "Charts" section
// showing its charts.
func linkCharts(outs []output, links map[string][]string) []output {
	for i, out := range outs {
		charts := links[out.path]
		if len(charts) == 0 {
			continue
		}
		render := out.render
		outs[i].render = func(w io.Writer, r stats.Result) error {
			if err := render(w, r); err != nil {
				return err
			}
			return writeChartLinks(w, charts)
		}
	}
	return outs
}

// writeChartLinks writes a "Charts" section showing the SVG charts,
// linked relative to the markdown file's directory.
func writeChartLinks(w io.Writer, charts []string) error {
	var b strings.Builder
	b.WriteString("\n**Charts**\n")
	for _, path := range charts {
		if filepath.Ext(path) != ".svg" {
			continue
		}
		rel := url.URL{Path: filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)} // escapes spaces
		fmt.Fprintf(&b, "\n![%s](%s)\n", chartAlt(filepath.Base(path)), rel.String())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// chartAlt describes a chart by its file name (as chart.WriteAll names it)
// for the markdown's alt text.
func chartAlt(file string) string {
	name := strings.TrimSuffix(file, filepath.Ext(file))
	if rest, ok := strings.CutPrefix(name, "timeline-"); ok {
		return "requests/s and latency over time: " + rest
	}
	if rest, ok := strings.CutPrefix(name, "rss-"); ok {
		return "server RSS over time: " + rest
	}
	if strings.HasPrefix(name, "capacity") {
		return "latency and achieved rate against offered rate"
	}
	return "latency percentile spectrum"
}

// named pairs each result with its name.
func named(names []string, rs []stats.Result) []chart.Named {
	out := make([]chart.Named, len(rs))
	for i, r := range rs {
		out[i] = chart.Named{Name: names[i], Result: r}
	}
	return out
}

// isMarkdown reports whether an -o path is written as markdown.
func isMarkdown(path string) bool { return formatOf(path) == "markdown" }
