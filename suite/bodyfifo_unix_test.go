//go:build unix

package suite

import (
	"context"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
)

// A body_file FIFO that no process writes holds the plan's load no
// longer than its context: a signal ends the wait.
func TestABodyFileFIFOWaitEndsWithTheContext(t *testing.T) {
	fifo := fixture.FIFO(t, "body.fifo")
	path := writePlan(t, minimal+"    body_file: "+fifo+"\n")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() { _, err := Load(ctx, path); done <- err }()
	select {
	case err := <-done:
		if err == nil || ctx.Err() == nil {
			t.Fatalf("Load = %v with the context ended, want an error", err)
		}
	case <-time.After(fifoWait / 2):
		t.Fatal("Load still waits for the FIFO's writer after its context ended")
	}
}
