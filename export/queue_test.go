package export

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// fakeSink records what it is pushed; fail, if set, decides each push's
// error (its argument counts the pushes from 0); stall makes each push
// wait for its context.
type fakeSink struct {
	mu     sync.Mutex
	fail   func(n int) error
	stall  bool
	calls  int
	pushed []*Snapshot
}

func (f *fakeSink) Name() string { return "fake" }

func (f *fakeSink) Push(ctx context.Context, snaps []*Snapshot) error {
	f.mu.Lock()
	n := f.calls
	f.calls++
	f.mu.Unlock()
	if f.stall {
		<-ctx.Done()
		return ctx.Err()
	}
	if f.fail != nil {
		if err := f.fail(n); err != nil {
			return err
		}
	}
	f.mu.Lock()
	f.pushed = append(f.pushed, snaps...)
	f.mu.Unlock()
	return nil
}

func snaps(n int, finalLast bool) []*Snapshot {
	out := make([]*Snapshot, n)
	for i := range out {
		out[i] = counterSnap(int64(i+1)*1000, float64(i))
	}
	out[n-1].Final = finalLast
	return out
}

// TestQueueRetriesWhatMayPass: two 500s, then the push passes: nothing
// dropped, every snapshot delivered in order.
func TestQueueRetriesWhatMayPass(t *testing.T) {
	f := &fakeSink{fail: func(n int) error {
		if n < 2 {
			return errors.New("HTTP 500: busy")
		}
		return nil
	}}
	e := New(Options{Sinks: []Sink{f}})
	for _, s := range snaps(3, true) {
		e.offer(s)
	}
	waitFor(t, func() bool { f.mu.Lock(); defer f.mu.Unlock(); return len(f.pushed) == 3 }) // retried while the load runs
	r := e.Close(10 * time.Second)
	got := r[0]
	if got.Pushed != 3 || got.Dropped != 0 || got.Failures != 2 || got.Short || len(f.pushed) != 3 || f.pushed[2].At.UnixMilli() != 3000 {
		t.Errorf("report %+v, pushed %d", got, len(f.pushed))
	}
}

// TestQueueDropsWhatIsRefused: a permanent refusal is not retried; its
// snapshots are dropped, the load's last among them: the sink is short.
func TestQueueDropsWhatIsRefused(t *testing.T) {
	f := &fakeSink{fail: func(int) error { return Permanent(errors.New("HTTP 400: out of order sample")) }}
	e := New(Options{Sinks: []Sink{f}})
	for _, s := range snaps(2, true) {
		e.offer(s)
	}
	got := e.Close(10 * time.Second)[0]
	if got.Dropped != 2 || got.Pushed != 0 || got.Failures != int64(f.calls) || !got.Short || got.LastError != "HTTP 400: out of order sample" {
		t.Errorf("report %+v after %d pushes", got, f.calls)
	}
}

// TestQueueNeverHoldsTheLoad: with the sink stalled, offering thousands
// of snapshots returns at once, keeps at most maxPending, and Close ends
// by its deadline, counting everything undelivered.
func TestQueueNeverHoldsTheLoad(t *testing.T) {
	f := &fakeSink{stall: true}
	e := New(Options{Sinks: []Sink{f}})
	const n = 5000
	start := time.Now()
	for _, s := range snaps(n, true) {
		e.offer(s)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("offering %d snapshots took %v", n, d)
	}
	e.queues[0].mu.Lock()
	pending := len(e.queues[0].pending)
	e.queues[0].mu.Unlock()
	if pending > maxPending {
		t.Errorf("%d pending, at most %d", pending, maxPending)
	}
	start = time.Now()
	got := e.Close(200 * time.Millisecond)[0]
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Close took %v for a deadline of 200ms", d)
	}
	if got.Dropped != n || got.Pushed != 0 || !got.Short || got.LastError != "no answer before the run's end" {
		t.Errorf("report %+v, want all %d dropped, the push cut by the run's end", got, n)
	}
}

// TestQueueShortOnlyWhenALastIsLost: an early snapshot lost costs
// resolution only; the load's last delivered, the sink is not short.
func TestQueueShortOnlyWhenALastIsLost(t *testing.T) {
	f := &fakeSink{fail: func(n int) error {
		if n == 0 {
			return Permanent(errors.New("HTTP 400"))
		}
		return nil
	}}
	e := New(Options{Sinks: []Sink{f}})
	all := snaps(2, true)
	e.offer(all[0])
	waitFor(t, func() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.calls > 0 })
	e.offer(all[1])
	got := e.Close(10 * time.Second)[0]
	if got.Dropped != 1 || got.Pushed != 1 || got.Short {
		t.Errorf("report %+v", got)
	}
}

// waitFor waits until cond holds, at most 10 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}

// TestQueueGivesUpSoonOnceClosing: a sink that is down costs the end of a
// run a couple of attempts, not the close's whole deadline.
func TestQueueGivesUpSoonOnceClosing(t *testing.T) {
	f := &fakeSink{fail: func(int) error { return errors.New("connection refused") }}
	e := New(Options{Sinks: []Sink{f}})
	for _, s := range snaps(3, true) {
		e.offer(s)
	}
	start := time.Now()
	got := e.Close(10 * time.Second)[0]
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Close took %v with the sink down", d)
	}
	if got.Dropped != 3 || !got.Short || got.LastError != "connection refused" {
		t.Errorf("report %+v", got)
	}
}

// TestQueueCloseSparesABatchRefusedForGood: at close, a batch the sink
// refuses for good (a 400) does not spend the closing attempts of the
// next: the load's last snapshot, refused once and then taken, arrives.
func TestQueueCloseSparesABatchRefusedForGood(t *testing.T) {
	f := &fakeSink{fail: func(n int) error {
		switch n {
		case 0:
			return Permanent(errors.New("HTTP 400: out of order sample"))
		case 1:
			return errors.New("connection refused")
		}
		return nil
	}}
	e := New(Options{Sinks: []Sink{f}})
	e.queues[0].mu.Lock() // all queued before the queue's goroutine takes any: two batches
	e.queues[0].pending = append(e.queues[0].pending, snaps(maxBatch+1, true)...)
	e.queues[0].mu.Unlock()
	got := e.Close(10 * time.Second)[0]
	if got.Dropped != maxBatch || got.Pushed != 1 || got.Short {
		t.Errorf("report %+v: want the first batch dropped, the last snapshot delivered", got)
	}
}

// TestQueueCloseCutsABackoffShort: a sink down long enough for the
// back-off to reach seconds still costs the end of a run about a quarter
// of a second: the back-off under way is cut short, and the closing
// attempts are counted once, not per batch.
func TestQueueCloseCutsABackoffShort(t *testing.T) {
	f := &fakeSink{fail: func(int) error { return errors.New("connection refused") }}
	e := New(Options{Sinks: []Sink{f}})
	all := snaps(maxBatch+5, true)
	e.offer(all[0])
	// Failures at 0, 0.25, 0.75, 1.75 s: the back-off is 2 s when close begins.
	waitFor(t, func() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.calls >= 4 })
	for _, s := range all[1:] { // two batches more to deliver
		e.offer(s)
	}
	start := time.Now()
	got := e.Close(10 * time.Second)[0]
	if d := time.Since(start); d > time.Second {
		t.Errorf("Close took %v with the sink down (its back-off was 2 s)", d)
	}
	if got.Dropped != int64(len(all)) || got.Pushed != 0 || !got.Short {
		t.Errorf("report %+v, want all %d dropped", got, len(all))
	}
}
