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
