//go:build !linux

package transports

import (
	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/goroutine"
)

// openLoop is never called where the event loop does not run: the
// transport is chosen by Config.Transport, and Validate refuses --engine
// loop here.
func openLoop(r *engine.Load, workers []*engine.Worker) engine.Transport {
	return goroutine.New(r, workers)
}
