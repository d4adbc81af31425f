package engine

import (
	"math"
	"time"
)

// stage is one constant-rate part of an open-loop schedule.
type stage struct {
	rate  float64       // requests per second
	start time.Duration // offset of the stage from the run's start
	first int64         // index of the stage's first request
	count int64         // requests in the stage: rate × length, rounded down
	phase int           // recorder set the stage's outcomes go to
}

// schedule is an open-loop plan: the intended send time of every request,
// as a pure function of its index, shared by all connections. Request i of
// a stage is due at stage.start + i/rate, so the whole run keeps the rate
// however the requests spread over connections, and a request that is due
// is sent at once however late it is: pacing never sleeps per request.
type schedule struct {
	stages []stage
	total  int64 // requests in all stages: this part's, with a Shard
	end    time.Duration
	// part and parts select a Shard's requests: the i-th of this part is
	// the whole schedule's i·parts+part.
	part, parts int64
}

// newSchedule plans a warm-up stage (skipped when warmup is 0) followed by
// one stage of length d per rate. The warm-up's phase is 0; stage s's is s+1.
func newSchedule(warmupRate float64, warmup time.Duration, rates []float64, d time.Duration) *schedule {
	s := &schedule{parts: 1}
	if warmup > 0 {
		s.add(warmupRate, warmup, 0)
	}
	for i, r := range rates {
		s.add(r, d, i+1)
	}
	return s
}

func (s *schedule) add(rate float64, length time.Duration, phase int) {
	n := int64(math.Floor(rate * length.Seconds()))
	s.stages = append(s.stages, stage{rate: rate, start: s.end, first: s.total, count: n, phase: phase})
	s.total += n
	s.end += length
}

// share keeps only the requests of one part of a sharded load.
func (s *schedule) share(sh Shard) {
	s.part, s.parts = int64(sh.Index), 1
	if !sh.whole() {
		s.parts = int64(sh.Count)
		s.total = sh.Share(s.total)
	}
}

// at returns when request i is due, as an offset from the run's start, and
// its phase; ok is false past the last request.
func (s *schedule) at(i int64) (due time.Duration, phase int, ok bool) {
	if i >= s.total {
		return 0, 0, false
	}
	if s.parts > 1 {
		i = i*s.parts + s.part
	}
	for _, st := range s.stages {
		if i < st.first+st.count {
			k := float64(i - st.first)
			return st.start + time.Duration(k/st.rate*float64(time.Second)), st.phase, true
		}
	}
	return 0, 0, false
}
