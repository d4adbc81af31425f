package engine

import (
	"time"
)

// sampleInterval is how often each worker's request rate is sampled for
// the Req/Sec row (wrk's RECORD_INTERVAL_MS).
const sampleInterval = 100 * time.Millisecond

// sampler records each worker's requests per second every sampleInterval,
// keeping the samples taken from `from` on (the end of the warm-up).
type sampler struct {
	done chan struct{}
	out  chan []float64
	from time.Time
}

func startSampler(workers []*worker, from time.Time) *sampler {
	s := &sampler{done: make(chan struct{}), out: make(chan []float64, 1), from: from}
	go s.loop(workers, time.Now())
	return s
}

func (s *sampler) loop(workers []*worker, last time.Time) {
	tick := time.NewTicker(sampleInterval)
	defer tick.Stop()
	prev := make([]int64, len(workers))
	var rates []float64
	for {
		select {
		case now := <-tick.C:
			if now.Before(s.from) { // warming up: no samples yet
				appendRates(nil, workers, prev, now.Sub(last))
			} else {
				rates = appendRates(rates, workers, prev, now.Sub(last))
			}
			last = now
		case <-s.done:
			if len(rates) == 0 { // a run shorter than one interval
				rates = appendRates(rates, workers, prev, time.Since(last))
			}
			s.out <- rates
			return
		}
	}
}

// appendRates appends each worker's rate since prev and updates prev.
func appendRates(rates []float64, workers []*worker, prev []int64, d time.Duration) []float64 {
	if d <= 0 {
		return rates
	}
	for i, w := range workers {
		n := w.done.Load()
		rates = append(rates, float64(n-prev[i])/d.Seconds())
		prev[i] = n
	}
	return rates
}

// stop ends sampling and returns the samples.
func (s *sampler) stop() []float64 {
	close(s.done)
	return <-s.out
}
