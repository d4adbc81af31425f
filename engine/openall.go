package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// OpenAll opens a transport's n connections before the clock starts,
// dialers at a time: open(ctx, i) opens connection i. A connection that
// fails here opens again, and counts, once the run started. So that a
// target that drops connections costs one dial timeout rather than one per
// wave of dialers, a dialer whose dial fails before any connection opened
// stops, and all stop one timeout after the first failure. It returns how
// many opened, and the first failure.
func OpenAll(ctx context.Context, n, dialers int, timeout time.Duration, open func(ctx context.Context, i int) error) (opened int64, firstErr error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var count, next atomic.Int64
	// stopAt is when no dial starts any more (Unix ns), one timeout after
	// the first failure, 0 before it. It is checked before each dial as
	// well as cancelling ctx then: a dialer whose own timeout fires as the
	// cutoff's does must not start a wave more before it sees ctx end.
	var stopAt atomic.Int64
	var cutoff *time.Timer
	var once sync.Once
	dialing := func() bool {
		at := stopAt.Load()
		return ctx.Err() == nil && (at == 0 || time.Now().UnixNano() < at)
	}
	for range min(n, dialers) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(n) && dialing(); i = next.Add(1) - 1 {
				err := open(ctx, int(i))
				if err == nil {
					count.Add(1)
					continue
				}
				once.Do(func() {
					firstErr = err
					stopAt.Store(time.Now().Add(timeout).UnixNano())
					cutoff = time.AfterFunc(timeout, cancel)
				})
				if count.Load() == 0 {
					return // unreachable so far: this dialer stops
				}
			}
		})
	}
	wg.Wait()
	if cutoff != nil {
		cutoff.Stop()
	}
	return count.Load(), firstErr
}
