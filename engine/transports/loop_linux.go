package transports

import (
	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/loop"
)

// openLoop makes the event loop transport.
func openLoop(r *engine.Load, workers []*engine.Worker) engine.Transport { return loop.New(r, workers) }
