// Package wait holds the one way pummel waits for a time that a context
// may cut short.
package wait

import (
	"context"
	"time"
)

// For waits for d, or until ctx ends, returning ctx's error then.
func For(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Sleeper waits as For does, reusing one timer from one wait to the
// next: for a loop that may wait once per request. Its zero value is
// ready; it is not safe for concurrent use.
type Sleeper struct{ t *time.Timer }

// Until waits until at, or until ctx ends, returning ctx's error then; an
// at that is zero or past returns at once, with ctx's error if it ended.
func (s *Sleeper) Until(ctx context.Context, at time.Time) error {
	d := time.Until(at)
	if at.IsZero() || d <= 0 {
		return ctx.Err()
	}
	if s.t == nil {
		s.t = time.NewTimer(d)
	} else {
		s.t.Reset(d)
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-s.t.C:
		return nil
	}
}
