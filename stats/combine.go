package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/pummel-dev/pummel/stats/record"
)

// Combination says how results of the same load relate in time.
type Combination int

const (
	// Sequential results ran one after another (runs of --runs, saved
	// runs on one machine): durations add up, the rate is total requests
	// over total time.
	Sequential Combination = iota
	// Parallel results ran side by side (one load split over several
	// machines): the duration is the longest, the rates add up.
	Parallel
)

// Combine merges results of the same load into one. Histograms are
// merged, never averaged, so every percentile of the combination is exact
// (to the histogram's precision); counters are summed. A single result is
// checked as several would be and returned whole (stages, server figures
// and schedule included).
//
// Parts of a sharded load (Result.Shard) merge side by side only, into
// the result of the whole load; see combineShards.
func Combine(rs []Result, how Combination) (Result, error) {
	if len(rs) == 0 {
		return Result{}, errors.New("no results to combine")
	}
	if sharded(rs) {
		return combineShards(rs, how)
	}
	out, err := combine(rs, how)
	if err != nil || len(rs) > 1 {
		return out, err
	}
	return rs[0], nil // checked like several, and kept whole: stages, server, schedule
}

// combine merges rs as Combine does, whatever their number.
func combine(rs []Result, how Combination) (Result, error) {
	out := rs[0]
	out.Status, out.ErrorCauses, out.Stages, out.Warnings = map[string]int64{}, nil, nil, nil
	out.Shard, out.Shards = nil, nil
	out.Requests, out.BytesRead, out.BytesWritten, out.Reconnects, out.QUIC = 0, 0, 0, 0, nil
	out.Errors, out.Connect, out.Client = Errors{}, ConnectTime{}, ClientUsage{CPUs: rs[0].Client.CPUs}
	out.Interrupted = false
	out.Thresholds = nil // each result's conditions held for it alone
	// A capacity search's answer and steps are its own: merged results
	// keep the merged figures only.
	out.Capacity, out.Steps, out.StepResult = nil, nil, nil
	var durations []float64
	for _, r := range rs {
		out.addCounts(r)
		durations = append(durations, r.DurationS)
	}
	out.Export = combineExports(rs)
	out.DurationS = combineDurations(durations, how)
	out.Config.MergedCommands = mergedCommands(rs)
	if w := MixedLoads(rs); w != "" {
		out.Warnings = append(out.Warnings, w)
	}
	if how == Sequential { // the load ran once per result: the header says so
		out.Config.Runs, out.Config.Parallel = 0, 0
		for _, r := range rs {
			out.Config.Runs += max(r.Config.Runs, 1)
		}
	} else { // the rates add up: Validate must know
		out.Config.Parallel = 0
		for _, r := range rs {
			out.Config.Parallel += max(r.Config.Parallel, 1)
		}
	}
	out.RequestsPerS = combineRates(rs, out, how)
	out.ThreadRate = combineSpreads(rs)
	if err := out.combineHistograms(rs); err != nil {
		return Result{}, err
	}
	targets, warning, err := combineTargets(rs)
	if err != nil {
		return Result{}, err
	}
	if out.Targets = targets; warning != "" {
		out.Warnings = append(out.Warnings, warning)
	}
	out.combineClient(rs, how)
	// Rates and lags of separate schedules do not combine into one.
	out.TargetRate, out.Ramp, out.AchievedRate, out.ScheduleLag, out.AttackS, out.WaitS = 0, nil, 0, nil, 0, 0
	// Each result watched its own server process: their figures stay in
	// the results (Runs), as a merged process would mean nothing.
	out.Server = nil
	if how == Parallel {
		out.Start, out.StartAt = earliest(rs, func(r Result) string { return r.Start }), earliest(rs, func(r Result) string { return r.StartAt })
	}
	if out.Timeline, err = combineTimelines(rs, how); err != nil {
		return Result{}, err
	}
	return out, nil
}

// addCounts sums r's counters into out.
func (out *Result) addCounts(r Result) {
	out.Requests += r.Requests
	out.BytesRead += r.BytesRead
	out.BytesWritten += r.BytesWritten
	out.Reconnects += r.Reconnects
	out.QUIC = addQUIC(out.QUIC, r.QUIC)
	for code, n := range r.Status {
		out.Status[code] += n
	}
	out.Errors = out.Errors.Plus(r.Errors)
	for class, causes := range r.ErrorCauses {
		if out.ErrorCauses == nil {
			out.ErrorCauses = map[string]map[string]int64{}
		}
		if out.ErrorCauses[class] == nil {
			out.ErrorCauses[class] = map[string]int64{}
		}
		for cause, n := range causes {
			out.ErrorCauses[class][cause] += n
		}
	}
	c := &out.Connect
	if total := c.Count + r.Connect.Count; total > 0 {
		c.Mean = (c.Mean*float64(c.Count) + r.Connect.Mean*float64(r.Connect.Count)) / float64(total)
	}
	c.Count += r.Connect.Count
	c.Max = max(c.Max, r.Connect.Max)
	out.Client.CPUSeconds += r.Client.CPUSeconds
	out.Interrupted = out.Interrupted || r.Interrupted
	for _, w := range r.Warnings {
		if strings.HasPrefix(w, saturationPrefix) {
			continue // said again, once, for the combination
		}
		if !slices.Contains(out.Warnings, w) {
			out.Warnings = append(out.Warnings, w)
		}
	}
}

func combineDurations(ds []float64, how Combination) float64 {
	if how == Parallel {
		return slices.Max(ds)
	}
	var sum float64
	for _, d := range ds {
		sum += d
	}
	return sum
}

func combineRates(rs []Result, out Result, how Combination) float64 {
	if how == Parallel {
		var sum float64
		for _, r := range rs {
			sum += r.RequestsPerS
		}
		return sum
	}
	if out.DurationS == 0 {
		return 0
	}
	return float64(out.Requests) / out.DurationS
}

// combineSpreads pools the Req/Sec samples' summaries, weighting each by
// its sample count (the samples themselves are not kept).
func combineSpreads(rs []Result) Spread {
	var s Spread
	var sq float64
	for _, r := range rs {
		t := r.ThreadRate
		n := float64(t.Samples)
		s.Mean += t.Mean * n
		sq += (t.Stdev*t.Stdev + t.Mean*t.Mean) * n
		s.WithinStdevPct += t.WithinStdevPct * n
		s.Max = max(s.Max, t.Max)
		s.Samples += t.Samples
	}
	if s.Samples == 0 {
		return Spread{}
	}
	n := float64(s.Samples)
	s.Mean /= n
	s.WithinStdevPct /= n
	if v := sq/n - s.Mean*s.Mean; v > 0 {
		s.Stdev = math.Sqrt(v)
	}
	return s
}

// combineHistograms merges the latency histograms (and the open-loop ones)
// and recomputes the summaries from them.
func (out *Result) combineHistograms(rs []Result) error {
	lat, err := mergeEncoded(rs, func(r Result) string { return r.LatencyHistogram })
	if err != nil {
		return err
	}
	lo, hi := exactBounds(rs)
	out.Latency = summarizeWithin(lat, lo, hi)
	if out.LatencyHistogram, err = EncodeHistogram(lat); err != nil {
		return err
	}
	if !allOpenLoop(rs) { // mixed with closed-loop results: keep what all have
		out.LatencyUncorrected, out.LatencyUncorrectedHistogram, out.ScheduleLag = nil, "", nil
		out.TargetRate, out.Ramp, out.AchievedRate = 0, nil, 0
		return nil
	}
	unc, err := mergeEncoded(rs, func(r Result) string { return r.LatencyUncorrectedHistogram })
	if err != nil {
		return err
	}
	out.LatencyUncorrected = Summarize(unc)
	out.LatencyUncorrectedHistogram, err = EncodeHistogram(unc)
	return err
}

// mergeEncoded decodes and merges one histogram field of every result. It
// fails as mergeHistograms does.
func mergeEncoded(rs []Result, field func(Result) string) (*hdrhistogram.Histogram, error) {
	hs := make([]encodedHistogram, len(rs))
	for i, r := range rs {
		hs[i] = encodedHistogram{name: fmt.Sprintf("result %d", i+1), encoded: field(r), requests: r.Requests}
	}
	return mergeHistograms(hs)
}

// encodedHistogram is an encoded latency histogram to merge.
type encodedHistogram struct {
	name     string // whose it is, for errors: "result 2"
	encoded  string
	requests int64 // the responses it should hold
}

// mergeHistograms decodes and merges histograms. It fails on one that is
// missing while it has requests, and on values dropped by the merge,
// rather than report wrong percentiles or lose requests.
func mergeHistograms(hs []encodedHistogram) (*hdrhistogram.Histogram, error) {
	all := record.NewHistogram()
	for _, e := range hs {
		if e.encoded == "" && e.requests > 0 {
			return nil, fmt.Errorf("%s has %d requests but no latency histogram", e.name, e.requests)
		}
		h, err := DecodeHistogram(e.encoded)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.name, err)
		}
		if dropped := all.Merge(h); dropped > 0 {
			return nil, fmt.Errorf("%s: %d latencies fell outside the histogram's range", e.name, dropped)
		}
	}
	return all, nil
}

// exactBounds returns the smallest min and largest max of the results
// that have a latency: exact, where the histogram's are rounded.
func exactBounds(rs []Result) (lo, hi float64) {
	lo = math.Inf(1)
	for _, r := range rs {
		if r.Latency != nil {
			lo, hi = min(lo, r.Latency.Min), max(hi, r.Latency.Max)
		}
	}
	if math.IsInf(lo, 1) {
		return 0, 0
	}
	return lo, hi
}

// allOpenLoop reports whether every result has the open-loop histograms.
func allOpenLoop(rs []Result) bool {
	for _, r := range rs {
		if r.LatencyUncorrected == nil && r.Requests > 0 {
			return false
		}
	}
	return true
}

// combineClient recomputes the client's CPU share over the combined time
// and warns once if it was saturated.
func (out *Result) combineClient(rs []Result, how Combination) {
	var busy, span float64 // CPU-seconds the CPUs had over the measured time, and that time
	for _, r := range rs {
		busy += r.DurationS * float64(max(r.Client.CPUs, 1))
		span += r.DurationS
	}
	if how == Parallel || span < MinUsageSpan.Seconds() {
		return // separate clients, whose one share would mean nothing; or too short
	}
	out.Client.CPUPercent = 100 * out.Client.CPUSeconds / busy
	out.Client.Saturated = out.Client.CPUPercent >= SaturatedPercent
	if out.Client.Saturated {
		out.Warnings = append(out.Warnings, SaturationWarning(out.Client))
	}
}

// combineExports merges what the results' --export pushed: the counts of
// each sink (by kind and URL) summed, the run kept when every result
// carries the same (the parts of one sharded load do).
func combineExports(rs []Result) *Export {
	var out *Export
	for _, r := range rs {
		if r.Export == nil {
			continue
		}
		if out == nil {
			out = &Export{Run: r.Export.Run}
		}
		if out.Run != r.Export.Run {
			out.Run = ""
		}
		out.Dropped += r.Export.Dropped
		for _, s := range r.Export.Sinks {
			i := slices.IndexFunc(out.Sinks, func(o ExportSink) bool { return o.Sink == s.Sink && o.URL == s.URL })
			if i < 0 {
				out.Sinks = append(out.Sinks, ExportSink{Sink: s.Sink, URL: s.URL})
				i = len(out.Sinks) - 1
			}
			o := &out.Sinks[i]
			o.Pushed, o.Dropped, o.Failures = o.Pushed+s.Pushed, o.Dropped+s.Dropped, o.Failures+s.Failures
			o.Short = o.Short || s.Short
			if s.LastError != "" {
				o.LastError = s.LastError
			}
		}
	}
	return out
}
