package engine

import (
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
)

// A connection waiting for its response holds no header parser, so a slow
// server does not cost a parser per connection: 50 connections to a
// server that never answers make none.
func TestWaitingConnectionsHoldNoParser(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{Stall: true})
	// Empty the pool first, or parsers left by earlier tests would be
	// taken without being made.
	for made := parsersMade.Load(); parsersMade.Load() == made; {
		headers.Get()
	}
	before := parsersMade.Load()
	res := load(t, srv, Config{Duration: 300 * time.Millisecond, Connections: 50, Threads: 2})
	if made := parsersMade.Load() - before; made != 0 || res.Requests != 0 {
		t.Errorf("%d parsers made for %d responses, want none", made, res.Requests)
	}
}
