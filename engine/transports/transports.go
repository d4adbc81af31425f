// Package transports runs a load on the transport its Config asks for:
// the event loop (engine/loop, on Linux), a goroutine per connection
// (engine/goroutine), or QUIC for HTTP/3 (engine/quicgo). It is the one package that knows every transport,
// so that the engine's counting core knows none.
package transports

import (
	"context"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/goroutine"
	"github.com/pummel-dev/pummel/engine/quicgo"
	"github.com/pummel-dev/pummel/stats"
)

// Run carries out the load cfg describes on the transport it asks for
// (Config.Transport) and returns what was measured, as engine.RunOn
// says.
func Run(ctx context.Context, cfg engine.Config) (stats.Result, error) {
	return engine.RunOn(ctx, cfg, Open)
}

// Open makes the transport r's Config asks for, its connections spread
// over workers.
func Open(r *engine.Load, workers []*engine.Worker) engine.Transport {
	switch r.Config.Transport() {
	case engine.EngineLoop:
		return openLoop(r, workers)
	case engine.EngineQUIC:
		return quicgo.New(r, workers)
	}
	return goroutine.New(r, workers)
}
