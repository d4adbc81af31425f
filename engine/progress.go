package engine

import (
	"math"
	"time"

	"github.com/pummel-dev/pummel/stats"
)

// Progress is a snapshot of a running load, for a live display. It is read
// from counters and the last timeline second, never from the recorders.
type Progress struct {
	// Elapsed runs from the start of the measurement; it is negative
	// while warming up. Planned is the planned length (0 with -n only).
	Elapsed, Planned time.Duration
	// Requests counts the measured responses so far, Warmup the warm-up's;
	// Limit is the -n count (measured requests), or 0.
	Requests, Warmup, Limit int64
	// Warming is true until the measurement begins: during a timed
	// warm-up (Elapsed is then negative) or one by count.
	Warming bool
	// Errors counts failed requests so far, of every class.
	Errors int64
	// Measured is true once a whole second of the measurement has passed:
	// until then Rate, P50 and P99 hold nothing yet.
	Measured bool
	// Rate is the last second's responses; P50 and P99 its latency, to
	// the microsecond (0 for a second without a response).
	Rate     float64
	P50, P99 time.Duration
	// TargetRate is the current open-loop rate (on a ramp, the rate at
	// Elapsed, to the request/s), 0 in closed loop.
	TargetRate float64
}

// showProgress calls the Progress callback, at most every progressEvery.
func (s *sampler) showProgress(now time.Time) {
	cb := s.load.Config.Progress
	if cb == nil || now.Sub(s.progress) < progressEvery {
		return
	}
	s.progress = now
	from := s.load.measureFrom()
	warming := from.IsZero() || now.Before(from)
	if from.IsZero() {
		from = now
	}
	p := Progress{Elapsed: now.Sub(from), Planned: s.load.planned(), Limit: s.load.Config.Requests, Warming: warming,
		Measured: s.last.At > 0, Rate: float64(s.last.Requests), P50: stats.Micros(s.last.Latency.P50), P99: stats.Micros(s.last.Latency.P99)}
	for _, w := range s.workers {
		p.Requests += w.done.Load()
		p.Warmup += w.warm.Load()
	}
	for _, e := range s.second.prevErrs {
		p.Errors += e
	}
	p.TargetRate = s.load.targetRateAt(p.Elapsed)
	cb(p)
}

// planned is how long the measurement is planned to last.
func (r *Load) planned() time.Duration {
	if r.Sched != nil {
		return time.Duration(len(r.Config.Rates)) * r.Config.Duration
	}
	return r.Config.Duration
}

// rateAt is this process's target rate at offset t into open-loop stage i:
// on a ramp, the rate the ramp has reached, to the request/s.
func (r *Load) rateAt(i int, t time.Duration) float64 {
	if !r.Config.ramps(i) {
		return r.targetRate(i)
	}
	st := stage{from: r.Config.stageFrom(i), to: r.Config.Rates[i], length: r.Config.Duration}
	return math.Round(r.Config.Shard.Rate(st.rateAt(t)))
}
