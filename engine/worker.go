package engine

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/pummel-dev/pummel/stats"
)

// worker is a group of connections sharing one stats.Recorder (wrk's
// thread). Connections hand it outcomes in batches, so its lock is taken
// about once per stats.BatchSize requests, and never by another worker.
type worker struct {
	mu  sync.Mutex      // guards rec
	rec *stats.Recorder // this worker's measurements
	// done counts responses, read by the Req/Sec sampler without the lock.
	done atomic.Int64
}

func newWorker() *worker { return &worker{rec: stats.NewRecorder()} }

func (w *worker) addBatch(b *stats.Batch) {
	w.mu.Lock()
	w.rec.AddBatch(b)
	w.mu.Unlock()
}

func (w *worker) addError(class stats.ErrorClass, cause string) {
	w.addErrors(class, cause, 1)
}

func (w *worker) addErrors(class stats.ErrorClass, cause string, n int) {
	w.mu.Lock()
	w.rec.AddErrors(class, cause, int64(n))
	w.mu.Unlock()
}

func (w *worker) addReconnect() {
	w.mu.Lock()
	w.rec.AddReconnect()
	w.mu.Unlock()
}

func (w *worker) addConnect(d time.Duration) {
	w.mu.Lock()
	w.rec.AddConnect(d)
	w.mu.Unlock()
}
