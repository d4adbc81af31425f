package stats

import (
	"fmt"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Second is one second of a run's timeline.
type Second struct {
	// At is the end of this second, in seconds from the start of the
	// measurement (the last entry may cover less than a second).
	At float64 `json:"t"`
	// Requests counts the responses completed in this second.
	Requests  int64  `json:"requests"`
	Errors    Errors `json:"errors"`
	BytesRead int64  `json:"bytes_read"`
	// Latency summarises this second's responses, in microseconds.
	Latency SecondLatency `json:"latency_us"`
	// Histogram is this second's latency histogram, encoded as
	// LatencyHistogram is, so that timelines merge exactly.
	Histogram string `json:"histogram,omitempty"`
}

// SecondLatency is the part of a latency summary a timeline keeps.
type SecondLatency struct {
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// NewSecond summarises one second from its histogram and counts.
func NewSecond(at float64, h *hdrhistogram.Histogram, errs Errors, bytesRead int64) (Second, error) {
	s := SummarizeSecond(at, h, errs, bytesRead)
	var err error
	s.Histogram, err = EncodeHistogram(h)
	return s, err
}

// SummarizeSecond is NewSecond without the encoded histogram, for a
// timeline that keeps its seconds' histograms packed (see record.Packer)
// and encodes them after the run.
func SummarizeSecond(at float64, h *hdrhistogram.Histogram, errs Errors, bytesRead int64) Second {
	s := Second{At: at, Requests: h.TotalCount(), Errors: errs, BytesRead: bytesRead}
	if h.TotalCount() > 0 {
		us := func(ns int64) float64 { return float64(ns) / 1e3 }
		p := h.ValueAtPercentilesSlice([]float64{50, 90, 99})
		s.Latency = SecondLatency{P50: us(p[0]), P90: us(p[1]), P99: us(p[2]), Max: us(h.Max())}
	}
	return s
}

// combineTimelines merges timelines: side by side (Parallel) by
// wall-clock second, or one after another (Sequential) end to end.
func combineTimelines(rs []Result, how Combination) ([]Second, error) {
	if how == Parallel {
		return wallClockTimeline(rs)
	}
	var out []Second
	var offset float64
	for _, r := range rs {
		for _, s := range r.Timeline {
			s.At += offset
			out = append(out, s)
		}
		offset += r.DurationS
	}
	return out, nil
}

// wallClockTimeline merges timelines that ran side by side, each placed by
// its actual start (Start) after the earliest: every second of a result
// goes to the wall-clock second holding its middle, counted from the
// earliest start. Machines that started 300 ms apart have their first
// seconds merged; 700 ms apart, the later one's first second joins the
// earlier one's second. A result without a start is taken to have started
// with the earliest.
func wallClockTimeline(rs []Result) ([]Second, error) {
	offsets, _ := startOffsets(rs)
	n, err := wallClockSeconds(rs, offsets)
	if err != nil || n == 0 {
		return nil, err
	}
	out, filled := make([]Second, n), make([]bool, n)
	ends := make([]float64, n) // the latest end of a second merged into each
	for i, r := range rs {
		prev := 0.0
		for _, s := range r.Timeline {
			k := max(int(offsets[i]+(prev+s.At)/2), 0)
			end := offsets[i] + s.At
			prev = s.At
			if filled[k] {
				var err error
				if s, err = mergeSeconds(out[k], s); err != nil {
					return nil, err
				}
			}
			out[k], filled[k], ends[k] = s, true, max(ends[k], end)
		}
	}
	for k := range out { // a second no result measured stays Second{}
		out[k].At = float64(k + 1)
		if filled[k] && ends[k] < out[k].At {
			out[k].At = ends[k] // the last, shorter second
		}
	}
	return out, nil
}

// maxIdleSeconds is how many seconds of a wall-clock timeline may hold
// no measured second: gaps between results that started apart. It bounds
// what the timeline of results claiming starts a year apart would take.
const maxIdleSeconds = 24 * 60 * 60

// wallClockSeconds is how many seconds the wall-clock timeline of rs
// spans, refusing a span of more than maxIdleSeconds beyond the seconds
// the results measured: results that ran side by side overlap.
func wallClockSeconds(rs []Result, offsets []float64) (int, error) {
	var last float64
	measured := 0
	for i, r := range rs {
		prev := 0.0
		for _, s := range r.Timeline {
			last = max(last, offsets[i]+(prev+s.At)/2)
			prev = s.At
		}
		measured += len(r.Timeline)
	}
	if last >= float64(measured+maxIdleSeconds) {
		return 0, fmt.Errorf("the timelines span %.0f s of wall-clock time for %d s measured: results that ran side by side overlap in time", last, measured)
	}
	if measured == 0 {
		return 0, nil
	}
	return int(last) + 1, nil
}

// mergeSeconds merges two seconds of timelines that ran side by side. It
// fails as mergeHistograms does: on a second with requests but no
// histogram, and on latencies the merge would drop.
func mergeSeconds(a, b Second) (Second, error) {
	hs := make([]encodedHistogram, 2)
	for i, s := range []Second{a, b} {
		hs[i] = encodedHistogram{name: fmt.Sprintf("timeline at %gs", s.At), encoded: s.Histogram, requests: s.Requests}
	}
	h, err := mergeHistograms(hs)
	if err != nil {
		return Second{}, err
	}
	errs := a.Errors.Plus(b.Errors)
	return NewSecond(max(a.At, b.At), h, errs, a.BytesRead+b.BytesRead)
}
