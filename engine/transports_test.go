package engine_test

import (
	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/transports"
)

// The engine's tests run every scenario on the transports, which import
// the engine: this file, of the external test package, may import them,
// and hands them to the tests' Run (transports_hook_test.go).
func init() { engine.TestTransports = transports.Open }
