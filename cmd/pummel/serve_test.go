package main

import (
	"sync"
	"testing"
	"time"
)

// TestQueueServesOneAtATime: takes from many goroutines at once are
// served one service apart, whatever their number: the queue's capacity
// is one per service.
func TestQueueServesOneAtATime(t *testing.T) {
	q := &queue{service: time.Millisecond}
	start := time.Now()
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(q.take)
	}
	wg.Wait()
	if served := q.free.Sub(start); served < 20*time.Millisecond {
		t.Errorf("20 takes served by %v after the first arrived, want at least 20 services (20ms)", served)
	}
	if time.Now().Before(q.free) {
		t.Error("a take returned before its turn was served")
	}
}
