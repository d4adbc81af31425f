package export

import (
	"context"
	"sync"
	"time"
)

// Queue bounds. A sink that cannot keep up (down, slow) holds at most
// maxPending snapshots waiting (two minutes' at one a second, a few MB
// at most); the oldest go first, counted. A backlog goes maxBatch
// snapshots to a push, so that a sink back after an outage catches up.
const (
	maxPending = 120
	maxBatch   = 60
)

// Back-off between failed pushes: doubling from minBackoff to maxBackoff.
// Once the exporter closes, a batch gets closingAttempts more at most,
// so that a sink that is down costs the end of a run a fraction of a
// second, not the close's whole deadline.
const (
	minBackoff      = 250 * time.Millisecond
	maxBackoff      = 5 * time.Second
	closingAttempts = 2
)

// queue holds one sink's snapshots and pushes them from its own
// goroutine (run). offer never waits for it.
type queue struct {
	sink Sink
	wake chan struct{} // a snapshot arrived, or close began
	stop context.Context
	quit context.CancelFunc // at close's deadline: ends a push or a back-off
	done chan struct{}      // closed as run returns

	mu        sync.Mutex // guards every field below
	pending   []*Snapshot
	closing   bool
	pushed    int64
	dropped   int64
	failures  int64
	lastError string
	// short counts the dropped snapshots that were a load's last.
	short int64
}

func newQueue(s Sink) *queue {
	q := &queue{sink: s, wake: make(chan struct{}, 1), done: make(chan struct{})}
	q.stop, q.quit = context.WithCancel(context.Background())
	return q
}

// offer queues s, dropping the oldest waiting snapshot when full.
func (q *queue) offer(s *Snapshot) {
	q.mu.Lock()
	if len(q.pending) == maxPending {
		q.drop(q.pending[:1])
		q.pending = q.pending[1:]
	}
	q.pending = append(q.pending, s)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// take waits for snapshots and returns up to maxBatch of the oldest;
// nil once the queue is closing and empty, or stopped.
func (q *queue) take() []*Snapshot {
	for {
		q.mu.Lock()
		n := min(len(q.pending), maxBatch)
		batch := q.pending[:n:n]
		q.pending = q.pending[n:]
		closing := q.closing
		q.mu.Unlock()
		if n > 0 {
			return batch
		}
		if closing {
			return nil
		}
		select {
		case <-q.wake:
		case <-q.stop.Done():
			return nil
		}
	}
}

// run pushes batches until close: each is retried with back-off until it
// is delivered, refused for good, or the close's deadline passes.
func (q *queue) run() {
	defer close(q.done)
	for batch := q.take(); batch != nil; batch = q.take() {
		q.deliver(batch)
	}
}

// deliver pushes one batch until it is delivered or given up.
func (q *queue) deliver(batch []*Snapshot) {
	backoff := minBackoff
	closingTries := 0
	for {
		ctx, cancel := context.WithTimeout(q.stop, pushTimeout)
		err := q.sink.Push(ctx, batch)
		cancel()
		q.mu.Lock()
		switch {
		case err == nil:
			q.pushed += int64(len(batch))
		default:
			q.failures++
			q.lastError = err.Error()
			if q.closing {
				closingTries++
			}
			if !isPermanent(err) && q.stop.Err() == nil && closingTries < closingAttempts {
				q.mu.Unlock()
				if q.sleep(backoff) {
					backoff = min(2*backoff, maxBackoff)
					continue
				}
				q.mu.Lock()
			}
			q.drop(batch)
		}
		q.mu.Unlock()
		return
	}
}

// sleep waits d, unless the close's deadline passes first.
func (q *queue) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-q.stop.Done():
		return false
	}
}

// close lets the queue push what it holds until deadline, then stops it;
// whatever is left is dropped.
func (q *queue) close(deadline time.Time) {
	q.mu.Lock()
	q.closing = true
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-q.done:
	case <-t.C:
		q.quit()
		<-q.done
	}
	q.quit()
	q.mu.Lock()
	q.drop(q.pending)
	q.pending = nil
	q.mu.Unlock()
}

// drop counts snaps as not delivered. q.mu must be held.
func (q *queue) drop(snaps []*Snapshot) {
	q.dropped += int64(len(snaps))
	for _, s := range snaps {
		if s.Final {
			q.short++
		}
	}
}

// report says what the queue delivered.
func (q *queue) report() SinkReport {
	q.mu.Lock()
	defer q.mu.Unlock()
	return SinkReport{Name: q.sink.Name(), Pushed: q.pushed, Dropped: q.dropped, Failures: q.failures,
		LastError: q.lastError, Short: q.short > 0}
}
