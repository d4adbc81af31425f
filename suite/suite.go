package suite

import (
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/parse"
	"github.com/pummel-dev/pummel/threshold"
)

// Suite is a checked plan, ready to Run. Its strings still hold their
// placeholders: each run expands them anew.
type Suite struct {
	// Name titles the results.
	Name string
	// File is the plan's path as given.
	File string
	// Runs is how many fresh server processes each mode gets.
	Runs int
	// Plan is the plan as written, header and environment values named
	// like secrets redacted: it is recorded in the result.
	Plan Plan

	server server
	modes  []mode
	ops    []recordedConfig
}

// Modes returns the modes' names in plan order.
func (s *Suite) Modes() []string {
	names := make([]string, len(s.modes))
	for i, m := range s.modes {
		names[i] = m.name
	}
	return names
}

// server is the checked Server.
type server struct {
	command  []string // argv templates
	env      []string // "K=V" templates, sorted
	readyURL string
	// readyProtocol is what the probes speak (see readyProtocol).
	readyProtocol engine.Protocol
	readyStatus   []parse.StatusRange
	readyTimeout  time.Duration
	settle        time.Duration
	tree          bool // watch the server's descendants too
}

// mode is the checked Mode.
type mode struct {
	name string
	args []string
	env  []string
}

// recordedConfig is the checked Operation.
type recordedConfig struct {
	name      string
	method    string
	url       string          // template
	headers   []engine.Header // values are templates
	body      body
	timeout   time.Duration
	protocol  engine.Protocol
	streams   int
	checks    engine.Checks
	shape     shape
	dependsOn int // index of the operation it depends on; -1 for none
	// thresholds are checked, once the runs are done, on the summary of
	// each mode; the result keeps them as written.
	thresholds []threshold.Expr
}

// shape is the checked load shape, in engine terms.
type shape struct {
	kind           string // "sequential", "closed" or "open"
	connections    int
	threads        int
	requests       int64
	warmupRequests int64
	duration       time.Duration
	warmup         time.Duration
	rate           float64
}
