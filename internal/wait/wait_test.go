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

func TestSleeperUntil(t *testing.T) {
	var s Sleeper
	for range 2 { // the second wait reuses the timer
		if err := s.Until(t.Context(), time.Now().Add(time.Millisecond)); err != nil {
			t.Errorf("Until(1ms) = %v", err)
		}
	}
	if err := s.Until(t.Context(), time.Time{}); err != nil {
		t.Errorf("Until(zero) = %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := s.Until(ctx, time.Now().Add(time.Hour)); !errors.Is(err, context.Canceled) {
		t.Errorf("Until(an hour) with ctx cancelled = %v, want %v", err, context.Canceled)
	}
	if err := s.Until(ctx, time.Now().Add(-time.Second)); !errors.Is(err, context.Canceled) {
		t.Errorf("Until(the past) with ctx cancelled = %v, want %v", err, context.Canceled)
	}
}
