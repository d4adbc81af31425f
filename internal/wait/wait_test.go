package wait

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestFor(t *testing.T) {
	if err := For(t.Context(), time.Millisecond); err != nil {
		t.Errorf("For(1ms) = %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := For(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("For(an hour) with ctx cancelled = %v, want %v", err, context.Canceled)
	}
}
