package stats

import (
	"fmt"
	"strconv"

	"github.com/pummel-dev/pummel/stats/record"
)

// Target is one row of a load over a list of targets (--targets): what
// was sent to its targets and what came back. A row holds the targets
// that share a name, or one unnamed target, or, in a list that would
// have more than engine.MaxRows (100) rows, all the unnamed targets
// (named "unnamed"; engine.TargetRows groups them).
type Target struct {
	// Name is the row's name (`# name login`), if it has one.
	Name string `json:"name,omitempty"`
	// Method and URL are the request line of the row's first target (the
	// URL redacted).
	Method string `json:"method"`
	URL    string `json:"url"`
	// Weight is how many times as often as a target of weight 1 the
	// row's targets were chosen: the sum of their weights.
	Weight int `json:"weight"`
	// Members counts the row's targets when it holds more than one; 0
	// (and absent) for a row of one target.
	Members int `json:"targets,omitempty"`
	// Requests counts its responses, Status them by code, Errors its
	// failed requests by class (bytes no request asked for are no
	// target's: they count in the result's errors only).
	Requests int64            `json:"requests"`
	Status   map[string]int64 `json:"status"`
	Errors   Errors           `json:"errors"`
	// Latency and LatencyHistogram are as the result's own, for this
	// target's responses.
	Latency          *Latency `json:"latency_us"`
	LatencyHistogram string   `json:"latency_histogram"`
}

// Label names a row in outputs and threshold errors: its name, or its
// 1-based place among the rows.
func (t Target) Label(i int) string {
	if t.Name != "" {
		return t.Name
	}
	return strconv.Itoa(i + 1)
}

// targetResults summarises per-target recorders; the caller fills in
// their names, methods, URLs and weights.
func targetResults(recs []*record.Recorder) ([]Target, error) {
	if recs == nil {
		return nil, nil
	}
	out := make([]Target, len(recs))
	for i, rec := range recs {
		t := rec.Totals()
		tr := Target{Requests: t.Requests, Status: make(map[string]int64, len(t.Status))}
		for code, n := range t.Status {
			tr.Status[strconv.Itoa(code)] = n
		}
		tr.Errors, _ = errorCounts(t)
		if t.Requests > 0 {
			tr.Latency = summarizeWithin(t.Latency, float64(t.MinNs)/1e3, float64(t.MaxNs)/1e3)
		}
		var err error
		if tr.LatencyHistogram, err = EncodeHistogram(t.Latency); err != nil {
			return nil, err
		}
		out[i] = tr
	}
	return out, nil
}

// combineTargets merges the results' rows of targets, row by row: their
// counts add up and their histograms merge. Results of other target
// lists (another count of rows, or another method, URL, name, weight or
// count of targets at some row) do not combine: the merge then has no
// targets, and says so.
func combineTargets(rs []Result) ([]Target, string, error) {
	first := rs[0].Targets
	if first == nil {
		for _, r := range rs[1:] {
			if r.Targets != nil {
				return nil, "the results have different target lists: the merge has no per-target figures", nil
			}
		}
		return nil, "", nil
	}
	for _, r := range rs[1:] {
		if !sameTargets(first, r.Targets) {
			return nil, "the results have different target lists: the merge has no per-target figures", nil
		}
	}
	out := make([]Target, len(first))
	for i, t := range first {
		t.Requests, t.Errors, t.Status = 0, Errors{}, map[string]int64{}
		hs := make([]encodedHistogram, len(rs))
		parts := make([]Result, len(rs)) // the target's latency in each, for exactBounds
		for j, r := range rs {
			rt := r.Targets[i]
			t.Requests += rt.Requests
			t.Errors = t.Errors.Plus(rt.Errors)
			for code, n := range rt.Status {
				t.Status[code] += n
			}
			hs[j] = encodedHistogram{name: fmt.Sprintf("result %d, target %s", j+1, t.Label(i)), encoded: rt.LatencyHistogram, requests: rt.Requests}
			parts[j].Latency = rt.Latency
		}
		lo, hi := exactBounds(parts)
		h, err := mergeHistograms(hs)
		if err != nil {
			return nil, "", err
		}
		t.Latency = summarizeWithin(h, lo, hi)
		if t.LatencyHistogram, err = EncodeHistogram(h); err != nil {
			return nil, "", err
		}
		out[i] = t
	}
	return out, "", nil
}

// sameTargets reports whether two results have the same rows of
// targets.
func sameTargets(a, b []Target) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Method != b[i].Method || a[i].URL != b[i].URL || a[i].Weight != b[i].Weight ||
			a[i].Members != b[i].Members {
			return false
		}
	}
	return true
}
