package engine

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/pummel-dev/pummel/stats"
)

// worker is a group of connections sharing one stats.Recorder per phase
// (wrk's thread). Connections hand it outcomes in batches, so its lock is
// taken about once per stats.BatchSize requests, and never by another worker.
type worker struct {
	mu   sync.Mutex        // guards recs' contents
	recs []*stats.Recorder // by phase: 0 warm-up, then the measured phases
	// done counts responses, read by the Req/Sec sampler without the lock.
	done atomic.Int64
	// script is the worker's Lua thread when a script makes each request.
	script *scripted
}

func newWorker(phases int, open bool) *worker {
	w := &worker{recs: make([]*stats.Recorder, phases)}
	for i := range w.recs {
		if open {
			w.recs[i] = stats.NewOpenRecorder()
		} else {
			w.recs[i] = stats.NewRecorder()
		}
	}
	return w
}

func (w *worker) addBatch(phase int, b *stats.Batch) {
	w.mu.Lock()
	w.recs[phase].AddBatch(b)
	w.mu.Unlock()
}

func (w *worker) addError(phase int, class stats.ErrorClass, cause string) {
	w.addErrors(phase, class, cause, 1)
}

func (w *worker) addErrors(phase int, class stats.ErrorClass, cause string, n int) {
	w.mu.Lock()
	w.recs[phase].AddErrors(class, cause, int64(n))
	w.mu.Unlock()
}

func (w *worker) addReconnect(phase int) {
	w.mu.Lock()
	w.recs[phase].AddReconnect()
	w.mu.Unlock()
}

func (w *worker) addConnect(phase int, d time.Duration) {
	w.mu.Lock()
	w.recs[phase].AddConnect(d)
	w.mu.Unlock()
}
