package engine

import (
	"runtime"
)

// loopSupported tells whether the event loop runs here: on Linux only.
const loopSupported = runtime.GOOS == "linux"

// Transports, as Config.Engine names them.
const (
	EngineAuto      = "auto"      // the event loop where it can run, else goroutines
	EngineLoop      = "loop"      // the event loop (Linux; plain TCP and Unix sockets)
	EngineGoroutine = "goroutine" // a goroutine per connection
	// EngineQUIC is HTTP/3's own transport (engine/quicgo): it is never
	// asked for, the protocol chooses it.
	EngineQUIC = "quic"
)

// Transport carries out a run's connections: the event loop
// (engine/loop) or a goroutine per connection (engine/goroutine), behind
// one contract. Both take their tickets from
// the run, hand bytes to conn, which counts every outcome, and stop when
// the run halts.
type Transport interface {
	// Open opens the connections before the clock starts; it fails when
	// not one could be opened.
	Open() error
	// Start lets the connections go; the channel is closed when every
	// one has finished.
	Start() <-chan struct{}
	// Halt wakes every connection so that it sees the run stopped.
	Halt()
}

// Transport is the transport that runs c: the one asked for (EngineLoop
// or EngineGoroutine), or for auto the event loop where it can serve the
// run.
func (c *Config) Transport() string {
	if c.Protocol == HTTP3 {
		return EngineQUIC
	}
	if c.Engine == EngineLoop || c.Engine == EngineGoroutine {
		return c.Engine
	}
	if loopSupported && c.loopCan() == nil {
		return EngineLoop
	}
	return EngineGoroutine
}

// loopCan reports why the event loop cannot serve cfg, or nil.
func (c *Config) loopCan() error {
	switch {
	case !loopSupported:
		return invalid("engine", "the event loop runs on Linux only, not %s", runtime.GOOS)
	case c.URL != nil && c.URL.Scheme == "https":
		return invalid("engine", "the event loop does not speak TLS; use {engine} goroutine (or auto) for https")
	case c.Dial != nil:
		return invalid("engine", "a custom dialer needs the goroutine transport")
	case c.Protocol == HTTP2 && c.Script != nil:
		return invalid("engine", "HTTP/2 with a script runs on the goroutine transport")
	}
	return nil
}

// OpenTransport makes the transport that carries out r's connections,
// spread over workers: engine/loop's or engine/goroutine's, as
// engine/transports picks for r's Config.
type OpenTransport func(r *Load, workers []*Worker) Transport
