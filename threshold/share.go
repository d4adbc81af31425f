package threshold

import (
	"math"
	"strconv"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/pummel-dev/pummel/stats"
)

// A percentile threshold is a statement about a share: "p99<5ms" says
// that at most 1% of the responses take 5 ms or more, and "errors<0.1%"
// that at most 0.1% of the outcomes failed. Read as a share, it can be
// judged with a stated confidence from the counts behind it (how many
// of how many went against it), where the percentile itself, read off
// 80 samples, is the second-slowest response. A capacity search judges
// its steps so (package capacity).

// Evidence is what a share threshold counts in one result: Against of
// Outcomes went against it (responses at or over the latency bound, or
// failed outcomes), and the threshold allows at most the share Allowed
// of them (0.01 for p99<…, 0.001 for errors<0.1%).
type Evidence struct {
	Against, Outcomes int64
	Allowed           float64
}

// Allowed is the largest share of outcomes e lets go against it, for a
// threshold that bounds a share from above: a percentile of the whole
// load's latency under a bound (pQ<X, pQ<=X: 1 − Q), or errors or
// statuses as a percentage (errors<0.1%: 0.001). ok is false for every
// other threshold (a count, a server figure, min, mean or max, one
// target's figure): those hold or not as Check says, whatever the
// number of samples.
func (e Expr) Allowed() (share float64, ok bool) {
	if (e.op != "<" && e.op != "<=") || e.target != "" {
		return 0, false
	}
	if q, ok := e.quantile(); ok {
		return 1 - q, true
	}
	if e.unit == "%" && e.bound > 0 && e.bound < 100 {
		return e.bound / 100, true
	}
	return 0, false
}

// quantile is Q of a percentile figure ("p99.9": 0.999).
func (e Expr) quantile() (float64, bool) {
	num, ok := strings.CutPrefix(e.fig.Name, "p")
	if !e.fig.Latency || !ok {
		return 0, false
	}
	p, err := strconv.ParseFloat(num, 64)
	if err != nil || p <= 0 || p >= 100 {
		return 0, false
	}
	return p / 100, true
}

// Evidence counts in r what e bounds as a share (see Allowed): ok is
// false for a threshold that bounds no share, and for a result with
// nothing to count (no response, for a latency bound). Latencies are
// read from r's histogram, to its precision (3 significant digits): a
// response counts against "p99<5ms" when the value the histogram
// reports for it (the highest of its bucket, as every percentile
// reads) is 5 ms or more, and so for "p99<=5ms" (the bucket that holds
// the bound counts against both).
func (e Expr) Evidence(r stats.Result) (Evidence, bool, error) {
	allowed, ok := e.Allowed()
	if !ok {
		return Evidence{}, false, nil
	}
	if _, ok := e.quantile(); !ok { // a share of outcomes: the count itself
		vs, n := e.fig.Samples(r), outcomes(r)
		if len(vs) == 0 || n == 0 {
			return Evidence{}, false, nil
		}
		return Evidence{Against: int64(e.fig.Worst(vs)), Outcomes: n, Allowed: allowed}, true, nil
	}
	if r.Latency == nil || r.LatencyHistogram == "" {
		return Evidence{}, false, nil
	}
	h, err := stats.DecodeHistogram(r.LatencyHistogram)
	if err != nil {
		return Evidence{}, false, err
	}
	boundNs := e.bound * e.scale * 1e3 // the bound in the histogram's unit
	var against int64
	if r.Latency.Max*1e3 >= boundNs { // percentiles are clamped to the recorded extremes
		bound := int64(math.Ceil(boundNs))
		packed := hdrhistogram.NewPacked(h.LowestTrackableValue(), h.HighestTrackableValue(), int(h.SignificantFigures()))
		packed.MergeFrom(h) // a walk over the populated buckets only
		for from, count := range packed.ForEachBucket {
			if from >= bound || h.ValuesAreEquivalent(from, bound) {
				against += count
			}
		}
	}
	return Evidence{Against: against, Outcomes: h.TotalCount(), Allowed: allowed}, true, nil
}
