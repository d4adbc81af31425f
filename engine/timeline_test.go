package engine

import (
	"sync"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

func TestTimelineSumsToTheTotals(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{Status: []int{200, 200, 200, 503}, Delay: time.Millisecond})
	var mu sync.Mutex
	var progress []Progress
	// The first progress report, at the sampler's first tick (100 ms),
	// must come in the warm-up: 600 ms leaves a busy machine's late tick
	// room.
	cfg := Config{Duration: 2 * time.Second, Connections: 3, Threads: 2, Warmup: 600 * time.Millisecond,
		Progress: func(p Progress) { mu.Lock(); progress = append(progress, p); mu.Unlock() }}
	res := runLoad(t, srv, cfg)
	if n := len(res.Timeline); n < 2 || n > 4 {
		t.Fatalf("%d timeline entries for 2 s", n)
	}
	var requests, statusErrs int64
	for i, s := range res.Timeline {
		requests += s.Requests
		statusErrs += s.Errors.Status
		h, err := stats.DecodeHistogram(s.Histogram)
		if err != nil || h.TotalCount() != s.Requests {
			t.Errorf("second %d: histogram holds %d of %d (%v)", i, h.TotalCount(), s.Requests, err)
		}
		if i > 0 && s.At <= res.Timeline[i-1].At {
			t.Errorf("second %d at %v, after %v", i, s.At, res.Timeline[i-1].At)
		}
	}
	if requests != res.Requests || statusErrs != res.Errors.Status {
		t.Errorf("timeline sums to %d responses, %d status errors; totals %d, %d", requests, statusErrs, res.Requests, res.Errors.Status)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(progress) < 4 || progress[0].Elapsed >= 0 || progress[len(progress)-1].Requests == 0 || progress[len(progress)-1].Planned != cfg.Duration {
		t.Errorf("progress reports %d, first %+v", len(progress), progress)
	}
	// Before the first whole second there is no rate or latency to show.
	for _, p := range progress {
		if p.Measured != (p.Elapsed >= time.Second) {
			t.Errorf("progress at %v: Measured %v", p.Elapsed, p.Measured)
		}
	}
}

// TestProgressCountsTheWarmupApart: with a warm-up by count, -n's total
// is the measured requests', so the progress line must not count the
// warm-up in it ("13108 / 10000").
func TestProgressCountsTheWarmupApart(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{Delay: 20 * time.Millisecond})
	var mu sync.Mutex
	var progress []Progress
	// 2 connections, 20 ms a request or more: 100 warm-up then 100
	// measured take a second or more, several progress reports (every
	// 250 ms) on each side.
	res := runLoad(t, srv, Config{Requests: 100, WarmupRequests: 100, Connections: 2,
		Progress: func(p Progress) { mu.Lock(); progress = append(progress, p); mu.Unlock() }})
	mu.Lock()
	defer mu.Unlock()
	var warming, measuring bool
	for _, p := range progress {
		if p.Requests > p.Limit || p.Warmup > 100 || p.Warming && p.Requests > 0 {
			t.Errorf("progress %+v: %d measured of -n %d, %d warm-up", p, p.Requests, p.Limit, p.Warmup)
		}
		warming = warming || p.Warming && p.Warmup > 0
		measuring = measuring || !p.Warming && p.Requests > 0
	}
	if !warming || !measuring || res.Requests != 100 {
		t.Errorf("%d responses; progress %+v: want reports during the warm-up and after it", res.Requests, progress)
	}
}

// TestTimelineKeepsWhatArrivesAsTheMeasurementBegins: a sampler's tick
// that fires just before the measurement begins can run just after it,
// when measured responses are already in the workers' intervals. They
// belong to the first second: the timeline sums to the totals, and an
// exporter that reads it (Config.OnTick) agrees with the result.
func TestTimelineKeepsWhatArrivesAsTheMeasurementBegins(t *testing.T) {
	w := NewWorker(2, false)
	var b record.Batch
	b.Add(record.Outcome{Latency: time.Millisecond, Status: 200})
	w.addBatch(MeasuredPhase, &b, nil)

	var tl timelineState
	tl.init()
	from := time.Now()
	if _, _, ok := tl.take([]*Worker{w}, from.Add(-time.Millisecond), false, from); ok {
		t.Fatal("a second before the measurement began")
	}
	sec, h, ok := tl.take([]*Worker{w}, from.Add(time.Second), false, from)
	if !ok || sec.Requests != 1 || h.TotalCount() != 1 {
		t.Errorf("first second: ok %v, %d requests, histogram of %d; want the response measured as the tick came", ok, sec.Requests, h.TotalCount())
	}
}
