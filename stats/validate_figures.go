package stats

import "fmt"

// rateSlack is how far requests_per_s may lie from requests / duration_s,
// relative to it, for rounding in a result written by hand or by another
// tool; pummel's own agree to the last digit.
const rateSlack = 1e-3

// validateFigures rejects figures no run produces: a latency summary out
// of order or negative, a schedule lag out of order, a rate that is not
// the requests over the duration, a timeline that runs backwards.
func (r *Result) validateFigures(path string) error {
	if err := validateLatency(path+"latency_us", r.Latency); err != nil {
		return err
	}
	if err := validateLatency(path+"latency_uncorrected_us", r.LatencyUncorrected); err != nil {
		return err
	}
	if s := r.ScheduleLag; s != nil {
		if err := ordered(path+"schedule_lag_us", []figure{{"p50", s.P50}, {"p99", s.P99}, {"max", s.Max}}); err != nil {
			return err
		}
	}
	if err := r.validateRate(path); err != nil {
		return err
	}
	return validateTimeline(path+"timeline", r.Timeline)
}

// figure is one named number of a summary.
type figure struct {
	name  string
	value float64
}

// ordered checks that figures are not negative and do not fall from one
// to the next.
func ordered(field string, fs []figure) error {
	for i, f := range fs {
		switch {
		case f.value < 0:
			return fmt.Errorf("%s.%s: %g is negative", field, f.name, f.value)
		case i > 0 && f.value < fs[i-1].value:
			return fmt.Errorf("%s: %s %g is above %s %g", field, fs[i-1].name, fs[i-1].value, f.name, f.value)
		}
	}
	return nil
}

// validateLatency checks a latency summary: min ≤ every percentile, in
// order, ≤ max, and a mean between min and max.
func validateLatency(field string, l *Latency) error {
	if l == nil {
		return nil
	}
	err := ordered(field, []figure{{"min", l.Min}, {"p50", l.P50}, {"p75", l.P75}, {"p90", l.P90}, {"p95", l.P95},
		{"p99", l.P99}, {"p99_9", l.P999}, {"p99_99", l.P9999}, {"max", l.Max}})
	switch {
	case err != nil:
		return err
	case l.Mean < l.Min || l.Mean > l.Max:
		return fmt.Errorf("%s.mean: %g lies outside min %g and max %g", field, l.Mean, l.Min, l.Max)
	case l.Stdev < 0:
		return fmt.Errorf("%s.stdev: %g is negative", field, l.Stdev)
	case l.WithinStdevPct < 0 || l.WithinStdevPct > 100:
		return fmt.Errorf("%s.within_stdev_pct: %g is not a percentage", field, l.WithinStdevPct)
	}
	return nil
}

// validateRate checks requests_per_s against requests / duration_s, the
// measured duration it is computed from (0 for no duration). Results
// merged side by side (pummel report --parallel, the parts of a sharded
// load) add their rates over the longest duration, so theirs may only be
// higher.
func (r *Result) validateRate(path string) error {
	var want float64
	if r.DurationS > 0 {
		want = float64(r.Requests) / r.DurationS
	}
	slack := want*rateSlack + 0.01
	sideBySide := r.Config.Parallel > 1 || r.Shards != nil
	if r.RequestsPerS < want-slack || !sideBySide && r.RequestsPerS > want+slack {
		return fmt.Errorf("%srequests_per_s: %g, but requests / duration_s is %g", path, r.RequestsPerS, want)
	}
	return nil
}

// validateTimeline checks that the timeline's seconds run forwards.
func validateTimeline(field string, seconds []Second) error {
	prev := 0.0
	for i, s := range seconds {
		if s.At < prev || s.Requests < 0 {
			return fmt.Errorf("%s[%d]: t %g, requests %d after t %g: want seconds in order, counts not negative", field, i, s.At, s.Requests, prev)
		}
		prev = s.At
	}
	return nil
}
