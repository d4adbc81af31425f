package engine

import (
	"context"

	"github.com/pummel-dev/pummel/stats"
)

// TestTransports opens the transport a test's Config asks for. It is set
// by transports_test.go, of package engine_test, which may import the
// transports (they import engine).
var TestTransports OpenTransport

// Run runs cfg in a test on the transport it asks for, as
// engine/transports.Run does outside the tests.
func Run(ctx context.Context, cfg Config) (stats.Result, error) {
	return RunOn(ctx, cfg, TestTransports)
}
