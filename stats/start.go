package stats

import (
	"fmt"
	"time"
)

// parseStart reads a Start or StartAt; ok is false for "" or a time pummel
// would not have written.
func parseStart(s string) (t time.Time, ok bool) {
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil && s != ""
}

// StartDelay is how long after its planned start (StartAt) r started
// (Start); ok is false unless both are known.
func (r Result) StartDelay() (d time.Duration, ok bool) {
	start, ok := parseStart(r.Start)
	planned, plannedOK := parseStart(r.StartAt)
	if !ok || !plannedOK {
		return 0, false
	}
	return start.Sub(planned), true
}

// earliest returns the earliest of the times field gives for rs, or ""
// when none has one.
func earliest(rs []Result, field func(Result) string) string {
	var first string
	var at time.Time
	for _, r := range rs {
		if t, ok := parseStart(field(r)); ok && (first == "" || t.Before(at)) {
			first, at = field(r), t
		}
	}
	return first
}

// startOffsets returns, for each result, how many seconds after the
// earliest actual start (Start) it started; known says which results have
// a start, and a result without one is given 0.
func startOffsets(rs []Result) (offsets []float64, known []bool) {
	offsets, known = make([]float64, len(rs)), make([]bool, len(rs))
	first, ok := parseStart(earliest(rs, func(r Result) string { return r.Start }))
	if !ok {
		return offsets, known
	}
	for i, r := range rs {
		if t, ok := parseStart(r.Start); ok {
			offsets[i], known[i] = t.Sub(first).Seconds(), true
		}
	}
	return offsets, known
}

// validateStart checks the fields that place a result in time and among
// the parts of a load: shard, start and start_at.
func (r *Result) validateStart() error {
	if s := r.Shard; s != nil && (s.Count < 1 || s.Count > MaxShards || s.Index < 0 || s.Index >= s.Count) {
		return fmt.Errorf("shard: index %d of count %d, want 0 ≤ index < count ≤ %d", s.Index, s.Count, MaxShards)
	}
	if s := r.Shards; s != nil && (s.Count < 1 || s.Count > MaxShards || len(s.Parts)+len(s.Missing) != s.Count) {
		return fmt.Errorf("shards: %d parts and %d missing of count %d, want them to make up the count, at most %d", len(s.Parts), len(s.Missing), s.Count, MaxShards)
	}
	for _, f := range []struct{ name, value string }{{"start", r.Start}, {"start_at", r.StartAt}} {
		if _, ok := parseStart(f.value); f.value != "" && !ok {
			return fmt.Errorf("%s: %q is not an RFC 3339 time", f.name, f.value)
		}
	}
	return nil
}
