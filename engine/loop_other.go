//go:build !linux

package engine

// loopSupported tells whether the event loop runs here: on Linux only.
const loopSupported = false

// newLoops is never called where the event loop does not run: the
// transport is chosen by Config.Transport, and Validate refuses
// --engine loop here.
func newLoops(r *load, workers []*worker) transport { return newGoroutines(r, workers) }
