package engine

import "time"

// Ticket is a connection's permission to send: count requests (a pipelined
// batch in closed loop), in a phase, and in open loop when they are due.
type Ticket struct {
	count int
	Phase int
	Due   time.Time // zero in closed loop
	// claimed: count was taken from -n's requests, so more requests
	// sent on this ticket must be taken from them too.
	claimed bool
	// index is the place of the ticket's first request in the load: in
	// -n's count (negative for a warm-up by count) or on the schedule,
	// when indexed; a closed loop by time has none. It picks the targets
	// of a list (see targetRequests).
	index   int64
	indexed bool
}

// Phases: outcomes are recorded per phase, and phase 0 (warm-up) enters
// no figure.
const (
	warmupPhase   = 0
	MeasuredPhase = 1 // closed loop; open-loop stage s is phase s+1
)

// Next hands a connection of worker w its next ticket; ok is false when
// the run is over for it. An open-loop ticket is due at t.due: the
// connection waits until then.
func (r *Load) Next(w *Worker) (t Ticket, ok bool) {
	if r.Halted.Load() || w.Script != nil && w.Script.thread.Stopped() {
		return t, false
	}
	if r.Sched != nil {
		t, ok = r.Scheduled(r.issued.Add(1) - 1)
		return t, ok && !r.TooLate(t.Due, time.Now())
	}
	t = Ticket{count: r.depth, Phase: MeasuredPhase}
	switch {
	case r.warming.Load(): // a timed warm-up, also before -n's count: it takes none of the count
		t.Phase = warmupPhase
	case r.limit > 0:
		i, k := r.claim(r.depth)
		if k == 0 {
			return t, false
		}
		t.count, t.claimed = k, true
		t.index, t.indexed = i-r.Config.WarmupRequests, true // the measured requests count from 0
		if i < r.Config.WarmupRequests {
			t.Phase = warmupPhase
		} else if r.Config.WarmupRequests > 0 {
			r.markMeasured(time.Now())
		}
	}
	return t, true
}

// TooLate reports whether an open-loop request due at due must no longer
// start at now. While the schedule runs, a request that is due leaves
// however late (every connection was busy): its latency runs from due.
// Once the schedule's time is over, no request starts unless the schedule
// is less than deadlineSlack behind, a client that kept up but left its
// last sends a little late; a client that fell behind sends nothing more,
// as no request starts after -d in closed loop. The run then ends when the
// requests in flight are done, or at load.timeLimit.
func (r *Load) TooLate(due, now time.Time) bool {
	return !now.Before(r.start.Add(r.Sched.end)) && now.Sub(due) > r.DeadlineSlack
}

// Scheduled is the open-loop ticket of the schedule's i-th request; ok is
// false past the last.
func (r *Load) Scheduled(i int64) (t Ticket, ok bool) {
	due, phase, ok := r.Sched.at(i)
	if !ok {
		return t, false
	}
	return Ticket{count: 1, Phase: phase, Due: r.start.Add(due), index: i, indexed: true}, true
}

// claim takes up to n of the limited requests, never straddling the end
// of the warm-up, and returns the index of the first and how many it took.
func (r *Load) claim(n int) (first int64, k int) {
	for {
		i := r.issued.Load()
		if i >= r.limit {
			return i, 0
		}
		end := min(i+int64(n), r.limit)
		if w := r.Config.WarmupRequests; i < w {
			end = min(end, w)
		}
		if r.issued.CompareAndSwap(i, end) {
			return i, int(end - i)
		}
	}
}
