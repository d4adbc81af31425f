package engine

import (
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// Tick is a running load's figures as one second of its timeline ends,
// for a watcher of the live load such as an exporter (Config.OnTick).
// Everything in it counts from the start of the measurement: the warm-up
// is in none of it, as in every other figure.
type Tick struct {
	// From is when the measurement began; At is the wall-clock end of
	// this second (From + 1 s, + 2 s…), and for the Final tick the end
	// of the run, which may come less than a second after the last.
	From, At time.Time
	Final    bool
	// Latency holds this second's response latencies in nanoseconds, as
	// the timeline took them (nil when no response ended in it); Lag the
	// schedule's lag so far (open loop; nil in closed loop). Both are
	// valid during the call only, and must not be changed.
	Latency, Lag *hdrhistogram.PackedHistogram
	// Totals counts what was measured so far, read from the recorders the
	// result is merged from: the Final tick's are the result's. Rows holds
	// the totals of each row of targets, in the result's order (their
	// Responses and Errors only); nil without Config.Targets.
	Totals Totals
	Rows   []Totals
	// Connections counts the connections open now.
	Connections int64
	// TargetRate is this process's open-loop rate at At (on a ramp, the
	// rate reached); 0 in closed loop.
	TargetRate float64
}

// StatusClasses is how many entries Totals.Responses has.
const StatusClasses = 6

// Totals is what a Tick counts from the start of the measurement.
type Totals struct {
	// Responses counts the responses by status class: Responses[2] the
	// 2xx, and Responses[0] a status outside 100–599. They add up to the
	// result's Requests.
	Responses [StatusClasses]int64
	// Errors counts the failed requests by class, as the result's.
	Errors                  stats.Errors
	BytesRead, BytesWritten int64
	Reconnects, LateSends   int64
}

// Plus is the sum of t's and o's counts.
func (t Totals) Plus(o Totals) Totals {
	for i := range t.Responses {
		t.Responses[i] += o.Responses[i]
	}
	t.Errors = t.Errors.Plus(o.Errors)
	t.BytesRead += o.BytesRead
	t.BytesWritten += o.BytesWritten
	t.Reconnects += o.Reconnects
	t.LateSends += o.LateSends
	return t
}

// Requests is the number of responses, whatever their status.
func (t Totals) Requests() int64 {
	var n int64
	for _, c := range t.Responses {
		n += c
	}
	return n
}

// ticker hands Config.OnTick its ticks, from the sampler's goroutine; it
// exists only when OnTick is set.
type ticker struct {
	lag  *hdrhistogram.PackedHistogram // the schedule lag, gathered anew each tick (open loop)
	rows int                           // rows of targets
}

func newTicker(r *Load) *ticker {
	t := &ticker{}
	if r.Sched != nil {
		t.lag = hdrhistogram.NewPacked(record.HistogramMin, record.HistogramMax, record.HistogramDigits)
	}
	if r.targets != nil {
		t.rows = len(r.targets.rows)
	}
	return t
}

// tick calls OnTick once a timeline second was taken (latency, nil
// when it held no response), and at the end of the run (final) whether
// or not there was a second left: the last figures must reach the watcher.
// Nothing is handed on before the measurement began.
func (s *sampler) tick(latency *hdrhistogram.PackedHistogram, taken, final bool, now time.Time) {
	from := s.load.measureFrom()
	if s.ticks == nil || from.IsZero() || !taken && !final {
		return
	}
	at := now
	if taken {
		at = s.second.at
	}
	t := Tick{From: from, At: at, Final: final, Latency: latency, Connections: connectionsOpen(s.workers),
		TargetRate: s.load.targetRateAt(at.Sub(from))}
	if t.Latency != nil && t.Latency.TotalCount() == 0 {
		t.Latency = nil
	}
	if s.ticks.rows > 0 {
		t.Rows = make([]Totals, s.ticks.rows)
	}
	if s.ticks.lag != nil {
		s.ticks.lag.Reset()
		t.Lag = s.ticks.lag
	}
	for _, w := range s.workers {
		w.addTotals(&t)
	}
	s.load.Config.OnTick(t)
}

// addTotals adds what w's measured phases recorded so far to t: its
// totals, rows and lag. It holds w's lock while it reads, as the timeline
// does once a tick; merging the lag scans a histogram (about 270 KB) per
// phase, which only an open-loop load that exports pays.
func (w *Worker) addTotals(t *Tick) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, rec := range w.recs[MeasuredPhase:] {
		rt := rec.Totals()
		addRecorded(&t.Totals, rt)
		t.Totals.BytesRead += rt.BytesRead
		t.Totals.BytesWritten += rt.BytesWritten
		t.Totals.Reconnects += rt.Reconnects
		t.Totals.LateSends += rt.LateSends
		if t.Lag != nil && rt.Lag != nil {
			t.Lag.MergeFrom(rt.Lag)
		}
		for i, row := range rec.Targets() {
			if i < len(t.Rows) {
				addRecorded(&t.Rows[i], row.Totals())
			}
		}
	}
}

// addRecorded adds a recorder's responses by status class and errors by
// class to t.
func addRecorded(t *Totals, rt record.Totals) {
	for code, n := range rt.Status {
		class := code / 100
		if class < 1 || class >= StatusClasses {
			class = 0
		}
		t.Responses[class] += n
	}
	e := rt.Errors
	t.Errors = t.Errors.Plus(stats.Errors{Connect: e[record.Connect], Read: e[record.Read], Write: e[record.Write],
		Timeout: e[record.Timeout], Status: e[record.Status], Validation: e[record.Validation]})
}

// targetRateAt is this process's open-loop rate at elapsed into the
// measurement (on a ramp, the rate reached); 0 in closed loop, and
// outside the stages.
func (r *Load) targetRateAt(elapsed time.Duration) float64 {
	if r.Sched == nil || elapsed < 0 || r.Config.Duration <= 0 {
		return 0
	}
	stage := int(elapsed / r.Config.Duration)
	if stage >= len(r.Config.Rates) {
		return 0
	}
	return r.rateAt(stage, elapsed-time.Duration(stage)*r.Config.Duration)
}
