package main

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/environment"
	"github.com/pummel-dev/pummel/export"
	"github.com/pummel-dev/pummel/measure"
	"github.com/pummel-dev/pummel/stats"
	"github.com/urfave/cli/v2"
)

// exportOptions holds the --export flags.
type exportOptions struct {
	sinks      cli.StringSlice // --export KIND=URL
	interval   string          // --export-interval
	labels     cli.StringSlice // --export-label k=v
	histograms string          // --export-histograms native|classic
}

// Histogram kinds, as --export-histograms names them.
const (
	histogramsNative  = "native"
	histogramsClassic = "classic"
)

func exportFlags(o *exportOptions) []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "export", Destination: &o.sinks, Usage: "push live figures to `prometheus=URL` (a remote-write endpoint) every --export-interval and at the end (repeatable)"},
		&cli.StringFlag{Name: "export-interval", Value: export.DefaultInterval.String(), Destination: &o.interval, Usage: "with --export: push every `D`, a whole number of seconds"},
		&cli.StringSliceFlag{Name: "export-label", Destination: &o.labels, Usage: "with --export: add the label `NAME=VALUE` to every series (repeatable; run=NAME names the run)"},
		&cli.StringFlag{Name: "export-histograms", Value: histogramsNative, Destination: &o.histograms, Usage: "with --export: latency as `native` histograms, or classic (le buckets) for a server without them"},
	}
}

// exportPlan is --export read and checked: the sinks, made but not
// started, and every series' labels.
type exportPlan struct {
	opts  export.Options
	run   string   // the run label
	urls  []string // each sink's URL, as outputs show it (secrets redacted)
	kinds []string
}

// closeTimeout bounds the wait for the last pushes after a run: a sink
// that is down or slow costs the run's end at most that.
const closeTimeout = 5 * time.Second

// plan reads the --export flags; nil without --export. The run label is
// made up here, unless --export-label run=NAME gives it: the same for
// every part of a sharded load that shares an absolute --start-at, else
// random.
func (o *exportOptions) plan(c *cli.Context, cfg engine.Config, rec *commandLine) (*exportPlan, error) {
	if len(o.sinks.Value()) == 0 {
		for _, flag := range []string{"export-interval", "export-label", "export-histograms"} {
			if c.IsSet(flag) { // given, at its default value or not
				return nil, usageError{"--" + flag + ": nothing to export without --export prometheus=URL"}
			}
		}
		return nil, nil
	}
	p := &exportPlan{}
	switch o.histograms {
	case histogramsNative:
	case histogramsClassic:
		p.opts.Classic = true
	default:
		return nil, usageError{fmt.Sprintf("--export-histograms: %q, want native or classic", o.histograms)}
	}
	interval, err := parseDuration(o.interval)
	if err == nil && (interval < time.Second || interval%time.Second != 0) {
		err = fmt.Errorf("%s: a whole number of seconds, at least 1s (the figures are taken once a second)", o.interval)
	}
	if err != nil {
		return nil, badFlag("--export-interval", err)
	}
	p.opts.Interval = interval
	for _, s := range o.sinks.Value() {
		sink, err := export.ParseSink(s, export.SinkOptions{UserAgent: "pummel/" + environment.Version(version), Classic: p.opts.Classic})
		if err != nil {
			return nil, badFlag("--export", err)
		}
		kind, url, _ := strings.Cut(s, "=")
		p.opts.Sinks, p.kinds, p.urls = append(p.opts.Sinks, sink), append(p.kinds, kind), append(p.urls, rec.url(url))
	}
	if p.opts.Labels, p.run, err = o.seriesLabels(cfg); err != nil {
		return nil, err
	}
	return p, nil
}

// seriesLabels is every series' labels: --export-label's, run and shard.
func (o *exportOptions) seriesLabels(cfg engine.Config) ([]export.Label, string, error) {
	run := ""
	var labels []export.Label
	for _, s := range o.labels.Value() {
		l, err := export.ParseLabel(s)
		if err != nil {
			return nil, "", badFlag("--export-label", err)
		}
		if l.Name == "run" {
			run = l.Value
			continue
		}
		labels = append(labels, l)
	}
	if run == "" {
		run = runID(cfg)
	}
	labels = append(labels, export.Label{Name: "run", Value: run})
	if cfg.Shard.Count > 0 {
		labels = append(labels, export.Label{Name: "shard", Value: strconv.Itoa(cfg.Shard.Index)})
	}
	return labels, run, nil
}

// runID makes up the run label: for a part of a sharded load with a
// planned start, from that start, the parts and the target, so that the
// parts of one load (machines given one absolute --start-at) share it;
// otherwise 8 random hex digits.
func runID(cfg engine.Config) string {
	if cfg.Shard.Count > 0 && !cfg.StartAt.IsZero() {
		sum := sha256.Sum256(fmt.Appendf(nil, "%s %d %s", cfg.StartAt.UTC().Format(time.RFC3339Nano), cfg.Shard.Count, cfg.URL))
		return hex.EncodeToString(sum[:4])
	}
	var b [4]byte
	rand.Read(b[:]) //nolint:errcheck // crypto/rand.Read does not fail
	return hex.EncodeToString(b[:])
}

// writeLine writes the header's export line.
func (p *exportPlan) writeLine(w io.Writer) error {
	if p == nil {
		return nil
	}
	var to []string
	for i, k := range p.kinds {
		to = append(to, k+" "+p.urls[i])
	}
	_, err := fmt.Fprintf(w, "  Export: run %s to %s every %s\n", p.run, strings.Join(to, ", "), p.opts.Interval)
	return err
}

// exporting is a command's export under way; nil when it exports nothing.
type exporting struct {
	plan *exportPlan
	exp  *export.Exporter
	done bool
}

// start starts exporting; nothing is made without --export.
func (p *exportPlan) start() *exporting {
	if p == nil {
		return nil
	}
	return &exporting{plan: p, exp: export.New(p.opts)}
}

// observe makes cfg's load export its figures under labels beyond every
// series' own (a capacity step's), with w's servers' RSS and CPU.
func (x *exporting) observe(cfg *engine.Config, w *measure.Watch, labels ...export.Label) {
	if x == nil {
		return
	}
	o := export.LoadOptions{Labels: labels, OpenLoop: len(cfg.Rates) > 0, Rows: rowLabels(cfg.Targets)}
	if w != nil {
		for _, pw := range w.Watchers() {
			o.Servers = append(o.Servers, export.Server{PID: pw.PID(), Sample: func() (int64, float64, bool) {
				s, ok := pw.Latest()
				return s.RSSBytes, s.CPUSeconds, ok
			}})
		}
	}
	cfg.OnTick = x.exp.Load(o).Observe
}

// rowLabels names the rows of targets as thresholds do: by name, or by
// place from 1.
func rowLabels(ts []engine.Target) []string {
	if len(ts) == 0 {
		return nil
	}
	rows, _, err := engine.TargetRows(ts)
	if err != nil {
		return nil // the config was validated: it does not happen
	}
	labels := make([]string, len(rows))
	for i, r := range rows {
		labels[i] = stats.Target{Name: r.Name}.Label(i)
	}
	return labels
}

// finish pushes what is left and says in res what each sink delivered,
// with one warning for each that dropped pushes.
func (x *exporting) finish(res *stats.Result) {
	e, warnings := x.report()
	res.Export = e
	res.Warnings = append(res.Warnings, warnings...)
}

// report pushes what is left (at most closeTimeout), stops exporting,
// and says what each sink delivered, with one warning for each that
// dropped pushes; nil once reported, or without --export.
func (x *exporting) report() (*stats.Export, []string) {
	if x == nil || x.done {
		return nil, nil
	}
	x.done = true
	out := &stats.Export{Run: x.plan.run, Sinks: x.exp.Close(closeTimeout)}
	var warnings []string
	for i := range out.Sinks {
		s := &out.Sinks[i]
		s.URL = x.plan.urls[i]
		out.Dropped += s.Dropped
		if s.Dropped > 0 {
			warnings = append(warnings, dropWarning(*s, x.plan.run))
		}
	}
	return out, warnings
}

// dropWarning says what a sink could not deliver, and what that means
// for the figures it holds.
func dropWarning(s stats.ExportSink, run string) string {
	what := "its figures for run " + run + " are the result's all the same: the pushes after those lost held them"
	if s.Short {
		what = "its figures for run " + run + " fall short of the result's: a load's last push was lost"
	}
	return fmt.Sprintf("--export %s %s: %d of %d pushes not delivered (%s); %s", s.Sink, s.URL, s.Dropped, s.Pushed+s.Dropped, s.LastError, what)
}

// stop ends an export that finish did not (a run that failed).
func (x *exporting) stop() {
	if x != nil && !x.done {
		x.done = true
		x.exp.Close(0)
	}
}
