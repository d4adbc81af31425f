package stats

import (
	"errors"
	"fmt"
	"sort"
)

// Validate reports the first way r is not a result pummel wrote, naming
// its JSON field: no target, a negative count or time, status counts that
// do not add up to requests, a latency histogram that holds other than
// one latency per response (or spans a wider range than pummel's), a
// latency summary out of order, a rate that is not requests over the
// duration, more parts than MaxShards, stages or runs that do not add up
// to the whole. `pummel report` and `pummel compare` check every file with it,
// so that they never render figures that contradict themselves.
func (r *Result) Validate() error {
	if r.Config.URL == "" {
		return errors.New("config.url: missing (pummel writes the target of every run)")
	}
	if err := r.validateStart(); err != nil {
		return err
	}
	return r.validate("")
}

// validate checks r, whose fields are named after path ("stages[1].").
func (r *Result) validate(path string) error {
	if err := r.validateCounts(path); err != nil {
		return err
	}
	if err := r.validateStatus(path); err != nil {
		return err
	}
	if err := validateHistogram(path+"latency_histogram", r.LatencyHistogram, r.Requests, r.Warnings); err != nil {
		return err
	}
	if r.LatencyUncorrectedHistogram != "" {
		if err := validateHistogram(path+"latency_uncorrected_histogram", r.LatencyUncorrectedHistogram, r.Requests, r.Warnings); err != nil {
			return err
		}
	}
	if r.Latency == nil && r.Requests > 0 {
		return fmt.Errorf("%slatency_us: null, but requests is %d", path, r.Requests)
	}
	if err := r.validateFigures(path); err != nil {
		return err
	}
	if err := validateParts(path+"stages", r.Stages, r.Requests); err != nil {
		return err
	}
	return validateParts(path+"runs", r.Runs, r.Requests)
}

// validateCounts rejects negative counts and times.
func (r *Result) validateCounts(path string) error {
	e, c := r.Errors, r.Config
	for _, f := range []struct {
		name string
		n    float64
	}{
		{"requests", float64(r.Requests)}, {"duration_s", r.DurationS}, {"requests_per_s", r.RequestsPerS},
		{"bytes_read", float64(r.BytesRead)}, {"bytes_written", float64(r.BytesWritten)}, {"reconnects", float64(r.Reconnects)},
		{"errors.connect", float64(e.Connect)}, {"errors.read", float64(e.Read)}, {"errors.write", float64(e.Write)},
		{"errors.timeout", float64(e.Timeout)}, {"errors.status", float64(e.Status)}, {"errors.validation", float64(e.Validation)},
		{"config.connections", float64(c.Connections)}, {"config.threads", float64(c.Threads)}, {"config.duration_s", c.DurationS},
		{"config.requests", float64(c.Requests)}, {"config.runs", float64(c.Runs)},
	} {
		if f.n < 0 {
			return fmt.Errorf("%s%s: %g is negative", path, f.name, f.n)
		}
	}
	for class, causes := range r.ErrorCauses {
		for cause, n := range causes {
			if n < 0 {
				return fmt.Errorf("%serror_causes.%s: %q counts %d, a negative count", path, class, cause, n)
			}
		}
	}
	return r.validateExport(path)
}

// validateStatus checks that every response has one status: the counts
// add up to requests.
func (r *Result) validateStatus(path string) error {
	var sum int64
	codes := make([]string, 0, len(r.Status))
	for code := range r.Status {
		codes = append(codes, code)
	}
	sort.Strings(codes) // the first bad code is the same each time
	for _, code := range codes {
		if n := r.Status[code]; n < 0 {
			return fmt.Errorf("%sstatus.%s: %d is negative", path, code, n)
		}
		sum += r.Status[code]
	}
	if sum != r.Requests {
		return fmt.Errorf("%sstatus: the counts add up to %d, but requests is %d", path, sum, r.Requests)
	}
	return nil
}

// validateHistogram checks that an encoded histogram decodes and holds one
// latency per response, less those the result warns were out of range.
func validateHistogram(field, encoded string, requests int64, warnings []string) error {
	h, err := DecodeHistogram(encoded)
	if err != nil {
		return fmt.Errorf("%s: %w", field, err)
	}
	n := h.TotalCount()
	if n > requests || n+droppedLatencies(warnings) < requests {
		return fmt.Errorf("%s: holds %d latencies, but requests is %d", field, n, requests)
	}
	return nil
}

// droppedLatencies reads how many latencies a result's warnings say were
// left out of its histograms (Merge's warning).
func droppedLatencies(warnings []string) int64 {
	var sum int64
	for _, w := range warnings {
		var n int64
		if _, err := fmt.Sscanf(w, droppedFormat, &n); err == nil {
			sum += n
		}
	}
	return sum
}

// validateParts checks each stage or run, and that their requests add up
// to the whole's.
func validateParts(field string, parts []Result, requests int64) error {
	if len(parts) == 0 {
		return nil
	}
	var sum int64
	for i := range parts {
		if err := parts[i].validate(fmt.Sprintf("%s[%d].", field, i)); err != nil {
			return err
		}
		sum += parts[i].Requests
	}
	if sum != requests {
		return fmt.Errorf("%s: their requests add up to %d, but requests is %d", field, sum, requests)
	}
	return nil
}

// validateExport rejects negative push counts, and a dropped count that
// is not its sinks'.
func (r *Result) validateExport(path string) error {
	if r.Export == nil {
		return nil
	}
	var dropped int64
	for i, s := range r.Export.Sinks {
		if s.Pushed < 0 || s.Dropped < 0 || s.Failures < 0 {
			return fmt.Errorf("%sexport.sinks[%d]: a negative count (pushed %d, dropped %d, failures %d)", path, i, s.Pushed, s.Dropped, s.Failures)
		}
		dropped += s.Dropped
	}
	if r.Export.Dropped != dropped {
		return fmt.Errorf("%sexport.dropped: %d, but its sinks dropped %d", path, r.Export.Dropped, dropped)
	}
	return nil
}
