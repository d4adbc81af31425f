package engine

import (
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/pummel-dev/pummel/stats"
)

// sampleInterval is how often each worker's request rate is sampled for
// the Req/Sec row (wrk's RECORD_INTERVAL_MS).
const sampleInterval = 100 * time.Millisecond

// progressEvery is how often a Config.Progress callback is called.
const progressEvery = 250 * time.Millisecond

// sampler watches the run from its own goroutine: every sampleInterval it
// records each worker's requests per second (the Req/Sec row), every
// second a timeline entry, and it reports progress. It keeps what it
// samples from `from` on (the end of the warm-up). It reads counters and
// takes each worker's lock once per tick, never per request.
type sampler struct {
	load    *Load
	workers []*Worker
	done    chan struct{}
	out     chan samples

	second   timelineState
	ticks    *ticker      // hands Config.OnTick its ticks; nil without it
	last     stats.Second // the latest second, for progress
	progress time.Time    // when progress was last reported
}

// warming reports whether the measurement has not begun by now.
func (s *sampler) warming(now time.Time) bool {
	from := s.load.measureFrom()
	return from.IsZero() || now.Before(from)
}

// samples is what the sampler hands back at the end.
type samples struct {
	rates    []float64
	timeline []stats.Second
	// histograms are the timeline's latency histograms, one a second,
	// packed. Encoding one allocates about 1 MB (see stats.EncodeHistogram):
	// done every second it would run the garbage collector every second.
	histograms []*hdrhistogram.PackedHistogram
}

// encodedTimeline returns the timeline with each second's histogram
// encoded, for after the run.
func (s samples) encodedTimeline() ([]stats.Second, error) {
	for i, h := range s.histograms {
		enc, err := stats.EncodeHistogram(h)
		if err != nil {
			return nil, err
		}
		s.timeline[i].Histogram = enc
	}
	return s.timeline, nil
}

func startSampler(r *Load, workers []*Worker) *sampler {
	s := &sampler{load: r, workers: workers, done: make(chan struct{}), out: make(chan samples, 1)}
	s.second.init()
	if r.Config.OnTick != nil {
		s.ticks = newTicker(r)
	}
	go s.loop(time.Now())
	return s
}

func (s *sampler) loop(last time.Time) {
	tick := time.NewTicker(sampleInterval)
	defer tick.Stop()
	prev := make([]int64, len(s.workers))
	var out samples
	for {
		select {
		case now := <-tick.C:
			if s.warming(now) { // no samples yet
				appendRates(nil, s.workers, prev, now.Sub(last))
			} else {
				out.rates = appendRates(out.rates, s.workers, prev, now.Sub(last))
			}
			last = now
			s.tickSecond(&out, now, false)
			s.showProgress(now)
		case <-s.done:
			if len(out.rates) == 0 { // a run shorter than one interval
				out.rates = appendRates(out.rates, s.workers, prev, time.Since(last))
			}
			s.tickSecond(&out, time.Now(), true)
			s.out <- out
			return
		}
	}
}

// tickSecond appends a timeline entry when a second has passed (or, at the
// end, for the part of a second left), and hands Config.OnTick its tick.
func (s *sampler) tickSecond(out *samples, now time.Time, final bool) {
	sec, h, ok := s.second.take(s.workers, now, final, s.load.measureFrom())
	if ok {
		s.last = sec
		out.timeline = append(out.timeline, sec)
		out.histograms = append(out.histograms, h)
	}
	s.tick(h, ok, final, now)
}

// appendRates appends each worker's rate since prev and updates prev.
func appendRates(rates []float64, workers []*Worker, prev []int64, d time.Duration) []float64 {
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
func (s *sampler) stop() samples {
	close(s.done)
	return <-s.out
}
