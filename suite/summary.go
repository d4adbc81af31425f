package suite

import (
	"fmt"
	"slices"

	"github.com/pummel-dev/pummel/stats"
)

// Summary holds the figures of the markdown and text tables: per mode
// over its runs, and per operation and mode over the runs.
type Summary struct {
	Modes      []ModeSummary      `json:"modes"`
	Operations []OperationSummary `json:"operations"`
}

// ModeSummary is a mode's startup and memory over its completed runs.
type ModeSummary struct {
	Mode          string `json:"mode"`
	Runs          int    `json:"runs"`
	StartupS      Range  `json:"startup_s"`
	IdleRSSBytes  Range  `json:"idle_rss_bytes"`
	RSSAfterBytes Range  `json:"rss_after_bytes"`
}

// Range is a figure's minimum, median and maximum over runs.
type Range struct {
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

// OperationSummary is one operation in one mode, over the runs that
// measured it.
type OperationSummary struct {
	Operation string `json:"operation"`
	Mode      string `json:"mode"`
	// Runs counts the runs that measured the operation; SkippedRuns those
	// that skipped it.
	Runs        int `json:"runs"`
	SkippedRuns int `json:"skipped_runs,omitempty"`
	// Requests counts the measured responses of all those runs.
	Requests int64 `json:"requests"`
	// Latency pools every measured response of every run: the runs'
	// histograms are merged, never averaged. It is nil (null in JSON)
	// when no request was answered.
	Latency *stats.Latency `json:"latency_us"`
	// RequestsPerS is the median of the runs' rates.
	RequestsPerS float64 `json:"requests_per_s"`
	// ServerCPUUsPerRequest is the median over the runs of the server's
	// CPU time per response, in microseconds.
	ServerCPUUsPerRequest float64 `json:"server_cpu_us_per_request"`
	// PeakRSSBytes is the highest RSS sampled during the operation.
	PeakRSSBytes int64 `json:"peak_rss_bytes"`
	// Errors counts requests that failed at the socket (connect, read,
	// write, timeout).
	Errors int64 `json:"errors"`
	// CheckFailures counts responses that failed a check, and
	// CheckCauses breaks them down by cause.
	CheckFailures int64            `json:"check_failures"`
	CheckCauses   map[string]int64 `json:"check_causes,omitempty"`
	// Warnings are the runs' warnings, each once (a saturated client, an
	// open-loop schedule not kept).
	Warnings []string `json:"warnings,omitempty"`
	// Thresholds holds the outcome of each of the operation's thresholds
	// in this mode.
	Thresholds []stats.Threshold `json:"thresholds,omitempty"`
}

// Summarize computes r.Summary and r.CheckFailures from r.Runs.
func (r *Result) Summarize() error {
	r.Summary, r.CheckFailures = Summary{}, 0
	for _, m := range r.Modes {
		r.Summary.Modes = append(r.Summary.Modes, r.modeSummary(m))
	}
	for _, op := range r.Operations {
		for _, m := range r.Modes {
			s, err := r.operationSummary(op, m)
			if err != nil {
				return fmt.Errorf("summarizing %s in mode %s: %w", op.Name, m, err)
			}
			r.Summary.Operations = append(r.Summary.Operations, s)
			r.CheckFailures += s.CheckFailures
		}
	}
	return nil
}

// modeSummary summarises a mode's runs that started and measured idle RSS.
func (r *Result) modeSummary(mode string) ModeSummary {
	var startup, idle, after []float64
	for _, run := range r.Runs {
		if run.Mode != mode || run.IdleRSSBytes == 0 {
			continue
		}
		startup = append(startup, run.StartupS)
		idle = append(idle, float64(run.IdleRSSBytes))
		if run.RSSAfterBytes > 0 {
			after = append(after, float64(run.RSSAfterBytes))
		}
	}
	return ModeSummary{Mode: mode, Runs: len(startup), StartupS: rangeOf(startup),
		IdleRSSBytes: rangeOf(idle), RSSAfterBytes: rangeOf(after)}
}

// operationSummary pools one operation's results in one mode.
func (r *Result) operationSummary(op OperationInfo, mode string) (OperationSummary, error) {
	name := op.Name
	s := OperationSummary{Operation: name, Mode: mode}
	var results []stats.Result
	var rates, cpu []float64
	for _, run := range r.Runs {
		for _, op := range run.Operations {
			switch {
			case run.Mode != mode || op.Name != name:
			case op.Result == nil:
				s.SkippedRuns++
			default:
				s.addCheckFailures(op)
				res := *op.Result
				results = append(results, res)
				rates = append(rates, res.RequestsPerS)
				if len(res.Server) > 0 {
					cpu = append(cpu, res.Server[0].CPUUsPerRequest)
					s.PeakRSSBytes = max(s.PeakRSSBytes, res.Server[0].RSSBytes.Peak)
				}
			}
		}
	}
	s.Runs = len(results)
	if s.Runs == 0 {
		return s, nil
	}
	pooled, err := stats.Combine(results, stats.Sequential)
	if err != nil {
		return s, err
	}
	s.Requests, s.Latency, s.Errors = pooled.Requests, pooled.Latency, pooled.Errors.Socket()
	s.RequestsPerS, s.ServerCPUUsPerRequest = rangeOf(rates).Median, rangeOf(cpu).Median
	s.Warnings = pooled.Warnings
	s.Thresholds, err = checkThresholds(op.Thresholds, pooled, results, s.RequestsPerS)
	return s, err
}

// addCheckFailures adds a run's failed checks to the summary.
func (s *OperationSummary) addCheckFailures(op OperationResult) {
	s.CheckFailures += op.CheckFailures
	for cause, n := range op.CheckCauses {
		if s.CheckCauses == nil {
			s.CheckCauses = map[string]int64{}
		}
		s.CheckCauses[cause] += n
	}
}

// rangeOf returns the minimum, median and maximum of vs; zeros for none.
func rangeOf(vs []float64) Range {
	if len(vs) == 0 {
		return Range{}
	}
	return Range{Min: slices.Min(vs), Median: stats.Median(vs), Max: slices.Max(vs)}
}
