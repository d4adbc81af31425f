package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/stats"
)

// sharding reads --shard and --start-at; now is when the flags were
// parsed, which a relative --start-at (+30s) counts from, so that parts
// started together on one machine share one start.
func (o *options) sharding(c *engine.Config, now time.Time) error {
	var err error
	if o.shard != "" {
		if c.Shard, err = parseShard(o.shard); err != nil {
			return badFlag("--shard", err)
		}
	}
	if o.startAt != "" {
		if c.StartAt, err = parseStartAt(o.startAt, now); err != nil {
			return badFlag("--start-at", err)
		}
	}
	return nil
}

// parseShard reads "i/N", part i (from 0, as Kubernetes'
// JOB_COMPLETION_INDEX) of N.
func parseShard(s string) (engine.Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	if strings.Contains(i, "$(") {
		return engine.Shard{}, fmt.Errorf("%q: the index was not filled in; Kubernetes sets $(JOB_COMPLETION_INDEX) only in an Indexed Job (completionMode: Indexed)", s)
	}
	index, errI := strconv.Atoi(i)
	count, errN := strconv.Atoi(n)
	if !ok || errI != nil || errN != nil || count < 1 || index < 0 || index >= count {
		return engine.Shard{}, fmt.Errorf("%q is not a part i/N with i from 0 to N-1 (examples: 0/3, 2/3)", s)
	}
	return engine.Shard{Index: index, Count: count}, nil
}

// parseStartAt reads an RFC 3339 time, or "+D", D (as -d takes it) after now.
func parseStartAt(s string, now time.Time) (time.Time, error) {
	if d, ok := strings.CutPrefix(s, "+"); ok {
		after, err := parseDuration(d)
		if err != nil {
			return time.Time{}, err
		}
		return now.Add(after), nil
	}
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a time (examples: 2026-12-01T15:00:00Z, +30s)", s)
	}
	return at, nil
}

// checkStartRuns refuses one start time for several runs.
func checkStartRuns(cfg engine.Config, runs int) error {
	if runs > 1 && !cfg.StartAt.IsZero() {
		return usageError{"--start-at: one start time cannot start --runs runs one after another; drop one of them"}
	}
	return nil
}

// identify writes into res which part of a sharded load it is and when it
// was planned to start.
func identify(res *stats.Result, cfg engine.Config) {
	if cfg.Shard.Count > 0 {
		res.Shard = &stats.Shard{Index: cfg.Shard.Index, Count: cfg.Shard.Count}
	}
	if !cfg.StartAt.IsZero() {
		res.StartAt = cfg.StartAt.UTC().Format(time.RFC3339Nano)
	}
}
