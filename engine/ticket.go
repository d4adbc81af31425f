package engine

import "time"

// ticket is a connection's permission to send: count requests (a pipelined
// batch in closed loop), in a phase, and in open loop when they are due.
type ticket struct {
	count int
	phase int
	due   time.Time // zero in closed loop
}

// Phases: outcomes are recorded per phase, and phase 0 (warm-up) enters
// no figure.
const (
	warmupPhase   = 0
	measuredPhase = 1 // closed loop; open-loop stage s is phase s+1
)

// next hands a connection its next ticket; ok is false when the run is over
// for it. In open loop it also waits until the ticket is due.
func (r *run) next(c *conn) (t ticket, ok bool) {
	if r.halted.Load() || c.worker.script != nil && c.worker.script.thread.Stopped() {
		return t, false
	}
	if r.sched != nil {
		i := r.issued.Add(1) - 1
		due, phase, ok := r.sched.at(i)
		if !ok {
			return t, false
		}
		t = ticket{count: 1, phase: phase, due: r.start.Add(due)}
		return t, c.waitUntil(t.due)
	}
	t = ticket{count: r.depth, phase: measuredPhase}
	if r.limit > 0 {
		i, k := r.claim(r.depth)
		if k == 0 {
			return t, false
		}
		t.count = k
		if i < r.cfg.WarmupRequests {
			t.phase = warmupPhase
		} else if r.cfg.WarmupRequests > 0 {
			r.measured.CompareAndSwap(0, time.Now().UnixNano())
		}
	} else if r.warming.Load() {
		t.phase = warmupPhase
	}
	return t, true
}

// claim takes up to n of the limited requests, never straddling the end
// of the warm-up, and returns the index of the first and how many it took.
func (r *run) claim(n int) (first int64, k int) {
	for {
		i := r.issued.Load()
		if i >= r.limit {
			return i, 0
		}
		end := min(i+int64(n), r.limit)
		if w := r.cfg.WarmupRequests; i < w {
			end = min(end, w)
		}
		if r.issued.CompareAndSwap(i, end) {
			return i, int(end - i)
		}
	}
}
