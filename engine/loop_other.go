//go:build !linux

package engine

import (
	"errors"
	"runtime"
)

// loopSupported tells whether the event loop runs here: on Linux only.
const loopSupported = false

// newLoops is never called where the event loop does not run: the
// transport is chosen by Config.Transport, and Validate refuses
// --engine loop here.
func newLoops(r *load, workers []*worker, _ bool) transport { return newGoroutines(r, workers) }

// uringAvailable tells why io_uring cannot serve here: it is Linux's.
func uringAvailable() error { return errNoUring }

var errNoUring = errors.New("io_uring runs on Linux only, not " + runtime.GOOS)
