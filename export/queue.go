package export

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/pummel-dev/pummel/internal/wait"
	"github.com/pummel-dev/pummel/stats"
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
// Once the exporter closes, a back-off under way is cut to minBackoff and
// the sink gets closingAttempts failed attempts more at most, over all
// its batches, so that a sink that is down costs the end of a run about
// minBackoff, not the close's whole deadline.
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
	// closingCtx ends as close begins (or at stop): it cuts a back-off
	// short.
	closingCtx context.Context
	beginClose context.CancelFunc
	done       chan struct{} // closed as run returns

	mu      sync.Mutex // guards every field below
	pending []*Snapshot
	closing bool
	// closingFails counts the failed pushes since close began that may
	// pass if tried again.
	closingFails int
	pushed       int64
	dropped      int64
	failures     int64
	lastError    string
	// short counts the dropped snapshots that were a load's last.
	short int64
}

func newQueue(s Sink) *queue {
	q := &queue{sink: s, wake: make(chan struct{}, 1), done: make(chan struct{})}
	q.stop, q.quit = context.WithCancel(context.Background())
	q.closingCtx, q.beginClose = context.WithCancel(q.stop)
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
	for q.mayPush() {
		ctx, cancel := context.WithTimeout(q.stop, pushTimeout)
		err := q.sink.Push(ctx, batch)
		err = q.unanswered(ctx, err)
		cancel()
		if err == nil {
			q.mu.Lock()
			q.pushed += int64(len(batch))
			q.mu.Unlock()
			return
		}
		if !q.failed(err) || !q.sleep(backoff) {
			break
		}
		backoff = min(2*backoff, maxBackoff)
	}
	q.mu.Lock()
	q.drop(batch)
	q.mu.Unlock()
}

// unanswered says why a push that ended with its context failed: the
// sink did not answer within pushTimeout, or before the close's deadline
// (the context's own words, "context canceled", would not tell). Other
// errors pass as they are.
func (q *queue) unanswered(ctx context.Context, err error) error {
	switch {
	case err == nil || ctx.Err() == nil:
		return err
	case q.stop.Err() != nil:
		return errors.New("no answer before the run's end")
	}
	return fmt.Errorf("no answer within %s", pushTimeout)
}

// mayPush reports whether a push may start: not after the close's
// deadline, nor once the sink failed closingAttempts times since close
// began.
func (q *queue) mayPush() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.stop.Err() == nil && !(q.closing && q.closingFails >= closingAttempts)
}

// failed counts a failed push, and reports whether it may be retried.
func (q *queue) failed(err error) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.failures++
	q.lastError = err.Error()
	permanent := isPermanent(err)
	if q.closing && !permanent { // a batch refused for good costs the others nothing
		q.closingFails++
	}
	return !permanent
}

// sleep waits d, cut to minBackoff once close begins; it reports false
// if the close's deadline passes first.
func (q *queue) sleep(d time.Duration) bool {
	start := time.Now()
	if wait.For(q.closingCtx, d) == nil {
		return true
	}
	return wait.For(q.stop, minBackoff-time.Since(start)) == nil
}

// close lets the queue push what it holds until deadline, then stops it;
// whatever is left is dropped.
func (q *queue) close(deadline time.Time) {
	q.mu.Lock()
	q.closing = true
	q.mu.Unlock()
	q.beginClose()
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
func (q *queue) report() stats.ExportSink {
	q.mu.Lock()
	defer q.mu.Unlock()
	return stats.ExportSink{Sink: q.sink.Name(), Pushed: q.pushed, Dropped: q.dropped, Failures: q.failures,
		LastError: q.lastError, Short: q.short > 0}
}
