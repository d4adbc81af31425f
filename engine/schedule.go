package engine

import (
	"math"
	"time"
)

// stage is one part of an open-loop schedule: a constant rate, or a rate
// that ramps linearly from one value to another over the stage's length.
type stage struct {
	from, to float64       // requests per second at the stage's start and end
	length   time.Duration // of the stage
	start    time.Duration // offset of the stage from the run's start
	first    int64         // index of the stage's first request
	count    int64         // requests in the stage: the mean rate × length, rounded down
	phase    int           // recorder set the stage's outcomes go to
}

// due is when the stage's request k is due, as an offset from its start:
// the time t at which the rate's integral, from·t + (to−from)·t²/(2·length),
// reaches k. For a constant rate that is k/rate; for a ramp it is the root
// of that quadratic, written as 2k / (from + √(from² + 2(to−from)k/length))
// so that it stays exact for a ramp from 0 and for a slight slope.
func (st *stage) due(k int64) time.Duration {
	x := float64(k)
	if st.from == st.to {
		return time.Duration(x / st.from * float64(time.Second))
	}
	if k == 0 {
		return 0
	}
	d := st.length.Seconds()
	t := 2 * x / (st.from + math.Sqrt(st.from*st.from+2*(st.to-st.from)*x/d))
	return time.Duration(t * float64(time.Second))
}

// rateAt is the stage's rate at offset t from its start.
func (st *stage) rateAt(t time.Duration) float64 {
	return st.from + (st.to-st.from)*min(t.Seconds()/st.length.Seconds(), 1)
}

// Schedule is an open-loop plan: the intended send time of every request,
// as a pure function of its index, shared by all connections. Request k of
// a stage is due when the stage's rate, integrated from its start, reaches
// k (k/rate for a constant one), so the whole run keeps the rate however
// the requests spread over connections, and a request that is due is sent
// at once however late it is: pacing never sleeps per request.
type Schedule struct {
	stages []stage
	Total  int64 // requests in all stages: this part's, with a Shard
	end    time.Duration
	// part and parts select a Shard's requests: the i-th of this part is
	// the whole schedule's i·parts+part.
	part, parts int64
}

// newSchedule plans a warm-up stage (skipped when warmup is 0) followed by
// one stage of length d per rate: constant, or ramping from from[i] to
// rates[i] when from is set. The warm-up's phase is 0; stage s's is s+1.
func newSchedule(warmupRate float64, warmup time.Duration, rates, from []float64, d time.Duration) *Schedule {
	s := &Schedule{parts: 1}
	if warmup > 0 {
		s.add(warmupRate, warmupRate, warmup, 0)
	}
	for i, r := range rates {
		a := r
		if from != nil {
			a = from[i]
		}
		s.add(a, r, d, i+1)
	}
	return s
}

// add appends a stage. Its count is the rate's integral over its length,
// (from+to)/2 × length, rounded down: the last request is due before the
// stage ends.
func (s *Schedule) add(from, to float64, length time.Duration, phase int) {
	n := int64(math.Floor((from + to) / 2 * length.Seconds()))
	if from == to {
		n = int64(math.Floor(to * length.Seconds()))
	}
	s.stages = append(s.stages, stage{from: from, to: to, length: length, start: s.end, first: s.Total, count: n, phase: phase})
	s.Total += n
	s.end += length
}

// share keeps only the requests of one part of a sharded load.
func (s *Schedule) share(sh Shard) {
	s.part, s.parts = int64(sh.Index), 1
	if !sh.whole() {
		s.parts = int64(sh.Count)
		s.Total = sh.Share(s.Total)
	}
}

// at returns when request i is due, as an offset from the run's start, and
// its phase; ok is false past the last request.
func (s *Schedule) at(i int64) (due time.Duration, phase int, ok bool) {
	if i >= s.Total {
		return 0, 0, false
	}
	if s.parts > 1 {
		i = i*s.parts + s.part
	}
	for k := range s.stages {
		st := &s.stages[k]
		if i < st.first+st.count {
			return st.start + st.due(i-st.first), st.phase, true
		}
	}
	return 0, 0, false
}
