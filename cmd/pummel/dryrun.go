package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/stats/render"
)

// dryRun prints what the checked command line would run, and sends
// nothing: the header, the --targets list, this process's part of a sharded load, where
// --connect-to and --resolve send the connections, and the planned
// start. A manifest's command line can so be checked where it is written
// (deploy/kubernetes's test does).
func (l *loader) dryRun(cfg engine.Config) error {
	var b strings.Builder
	if err := render.WriteHeader(&b, l.rec.recordedConfig(cfg)); err != nil {
		return err
	}
	if s := cfg.Shard; s.Count > 1 {
		fmt.Fprintf(&b, "Shard %d/%d: %s\n", s.Index, s.Count, strings.Join(partOf(cfg), ", "))
	}
	writeTargetPlan(&b, cfg.Targets)
	if address, redirected := cfg.Address(); redirected {
		fmt.Fprintf(&b, "Connect to %s (--connect-to, --resolve)\n", address)
	}
	if !cfg.StartAt.IsZero() {
		fmt.Fprintf(&b, "Start at %s\n", cfg.StartAt.UTC().Format(time.RFC3339Nano))
	}
	l.export.writeLine(&b) //nolint:errcheck // a strings.Builder does not fail
	b.WriteString("Dry run: the command line is valid; nothing was sent.\n")
	_, err := io.WriteString(l.stdout, b.String())
	return err
}

// partOf says what a part of a sharded load sends: "334 of the 1000
// connections, 1000 of the 3000 req/s".
func partOf(cfg engine.Config) []string {
	s := cfg.Shard
	items := []string{fmt.Sprintf("%d of the %d connections", s.Share(int64(cfg.Connections)), cfg.Connections)}
	if cfg.Requests > 0 {
		items = append(items, fmt.Sprintf("%d of the %d requests", s.Share(cfg.Requests), cfg.Requests))
	}
	for i, r := range cfg.Rates {
		if len(cfg.RampFrom) > 0 && cfg.RampFrom[i] != r {
			from := cfg.RampFrom[i]
			items = append(items, fmt.Sprintf("%g..%g of the %g..%g req/s", s.Rate(from), s.Rate(r), from, r))
			continue
		}
		items = append(items, fmt.Sprintf("%g of the %g req/s", s.Rate(r), r))
	}
	return items
}
