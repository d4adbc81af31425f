package engine

import (
	"sync"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/pummel-dev/pummel/stats/record"
	"github.com/pummel-dev/pummel/stats/requestlog"
)

// Worker is a group of connections sharing one record.Recorder per phase
// (wrk's thread). Connections hand it outcomes in batches, so its lock is
// taken about once per record.BatchSize requests, and never by another worker.
type Worker struct {
	mu   sync.Mutex         // guards recs' contents, interval and tally
	recs []*record.Recorder // by phase: 0 warm-up, then the measured phases
	// interval holds the latencies since the timeline's last tick; tally
	// the cumulative errors (by class) and bytes read, for its deltas.
	interval *hdrhistogram.Histogram
	tally    struct {
		errs      [record.NumErrorClasses]int64
		bytesRead int64
	}
	// done counts the measured responses, warm the warm-up's; the Req/Sec
	// sampler and the progress line read them without the lock.
	done, warm atomic.Int64
	// open counts the worker's connections open now (Conn.Attached,
	// Conn.Detached), for Config.OnTick.
	open atomic.Int64
	// Script is the worker's Lua thread when a script makes each request.
	Script *scripted
	// index numbers the worker from 0; log is its way into the request
	// log (nil without one), guarded by mu.
	index uint16
	log   *requestlog.Appender
}

// NewWorker makes a worker with a recorder for each of phases, open-loop
// recorders (which keep the uncorrected latency too) when open.
func NewWorker(phases int, open bool) *Worker {
	w := &Worker{recs: make([]*record.Recorder, phases), interval: record.NewHistogram()}
	for i := range w.recs {
		if open {
			w.recs[i] = record.NewOpen()
		} else {
			w.recs[i] = record.New()
		}
	}
	return w
}

// addBatch records a batch of responses, whose log lines are lines.
func (w *Worker) addBatch(phase int, b *record.Batch, lines []requestlog.Record) {
	w.mu.Lock()
	if phase != warmupPhase { // the timeline, like every figure, leaves out the warm-up
		t := b.Observe(w.interval)
		w.tally.errs[record.Status] += t.StatusErrors
		w.tally.bytesRead += t.BytesRead
		w.logLines(lines)
	}
	w.recs[phase].AddBatch(b)
	w.mu.Unlock()
}

// addError counts an error found in a response, which its own log line
// already shows.
func (w *Worker) addError(phase int, class record.ErrorClass, cause string) {
	w.addErrors(phase, class, cause, 1, nil)
}

// addErrors counts n requests that failed alike; line, if set, is the
// first one's log line, repeated for the others with no bytes.
func (w *Worker) addErrors(phase int, class record.ErrorClass, cause string, n int, line *requestlog.Record) {
	w.mu.Lock()
	w.recs[phase].AddErrors(class, cause, int64(n))
	if phase != warmupPhase {
		w.tally.errs[class] += int64(n)
		if line != nil {
			w.logFailures(*line, n)
		}
	}
	w.mu.Unlock()
}

func (w *Worker) addReconnect(phase int) {
	w.mu.Lock()
	w.recs[phase].AddReconnect()
	w.mu.Unlock()
}

// AddConnect records a connection opened in phase that took d to dial
// (and for TLS, to shake hands).
func (w *Worker) AddConnect(phase int, d time.Duration) {
	w.mu.Lock()
	w.recs[phase].AddConnect(d)
	w.mu.Unlock()
}

// takeInterval merges the latencies since the last call into h, empties
// the interval and returns the cumulative tally.
func (w *Worker) takeInterval(h *hdrhistogram.Histogram) ([record.NumErrorClasses]int64, int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	h.Merge(w.interval)
	w.interval.Reset()
	return w.tally.errs, w.tally.bytesRead
}
