// Package suite runs benchmark plans (`pummel suite PLAN.yaml`): a server
// command with modes, N fresh server processes per mode interleaved across
// modes, and per run its startup time, idle RSS and a list of named
// operations, each measured by the engine with the server watched. It
// reads and checks plans (Load), carries them out (Run) and renders the
// Result as JSON, markdown and a text summary.
//
// It never reads flags, and it generates no load and watches no process
// itself: each operation is measured through package measure.
package suite

// Plan is a benchmark plan as written in its YAML file: strings keep their
// placeholders ({port}, {tmpdir}) and ${VAR} references, so that the plan
// recorded in the results never holds an expanded secret. Load checks it
// and compiles it into a Suite. Every field is documented in the README.
type Plan struct {
	// Name titles the results; it defaults to the file's base name.
	Name string `yaml:"name" json:"name"`
	// Server is how to start the server under test.
	Server Server `yaml:"server" json:"server"`
	// Modes are named variations of the server; none means one mode,
	// "default".
	Modes []Mode `yaml:"modes" json:"modes,omitempty"`
	// Runs is how many fresh server processes each mode gets (default 1).
	Runs int `yaml:"runs" json:"runs"`
	// Operations are measured in order in every run.
	Operations []Operation `yaml:"operations" json:"operations"`
}

// Server describes the server under test.
type Server struct {
	// Command is an argv list, or a string split at spaces (no shell).
	Command any `yaml:"command" json:"command"`
	// Env is added to pummel's environment for the server.
	Env map[string]string `yaml:"env" json:"env,omitempty"`
	// Ready says when the server has started.
	Ready Ready `yaml:"ready" json:"ready"`
	// Settle is the wait after ready, before idle RSS (default 2s).
	Settle string `yaml:"settle" json:"settle,omitempty"`
	// Tree sums the RSS and CPU time of the server's descendants with its
	// own: for a server started by a wrapper script, or with workers.
	Tree bool `yaml:"tree" json:"tree,omitempty"`
}

// Ready is the readiness probe: GET URL until a Status answer.
type Ready struct {
	URL string `yaml:"url" json:"url"`
	// HTTP2 makes the probes speak HTTP/2 only (h2c with prior knowledge
	// for http://, h2 for https://), false HTTP/1.1; unset, they speak
	// HTTP/2 when every operation does, as --exec's do under --http2.
	HTTP2 *bool `yaml:"http2" json:"http2,omitempty"`
	// HTTP3 makes the probes speak HTTP/3 over QUIC (https:// only);
	// unset, they do when every operation does, as --exec's do under
	// --http3.
	HTTP3 *bool `yaml:"http3" json:"http3,omitempty"`
	// Status is a code, "2xx" or a list of them (default 2xx and 3xx).
	Status any `yaml:"status" json:"status,omitempty"`
	// Timeout bounds the wait from spawn to ready (default 30s).
	Timeout string `yaml:"timeout" json:"timeout,omitempty"`
}

// Mode is a named variation of the server: arguments appended to its
// command and environment added to Server.Env.
type Mode struct {
	Name string            `yaml:"name" json:"name"`
	Args []string          `yaml:"args" json:"args,omitempty"`
	Env  map[string]string `yaml:"env" json:"env,omitempty"`
}

// Operation is one named request and the load applied with it.
type Operation struct {
	Name   string `yaml:"name" json:"name"`
	Method string `yaml:"method" json:"method,omitempty"`
	URL    string `yaml:"url" json:"url"`
	// Headers maps header names to values; values may hold ${VAR}.
	Headers map[string]string `yaml:"headers" json:"headers,omitempty"`
	// Body, BodyFile and BodyRandom are exclusive: inline text, a file
	// (relative to the plan's directory) or that many random bytes.
	Body       *string `yaml:"body" json:"body,omitempty"`
	BodyFile   string  `yaml:"body_file" json:"body_file,omitempty"`
	BodyRandom int     `yaml:"body_random" json:"body_random,omitempty"`
	// Timeout bounds each request (default 2s).
	Timeout string `yaml:"timeout" json:"timeout,omitempty"`
	// HTTP2 speaks HTTP/2 (h2 over TLS, h2c for http://), with Streams
	// requests in flight per connection (default 1), as --http2 and
	// --streams.
	HTTP2 bool `yaml:"http2" json:"http2,omitempty"`
	// HTTP3 speaks HTTP/3 over QUIC (https only), with Streams, as
	// --http3.
	HTTP3   bool   `yaml:"http3" json:"http3,omitempty"`
	Streams int    `yaml:"streams" json:"streams,omitempty"`
	Checks  Checks `yaml:"checks" json:"checks"`
	Load    Shape  `yaml:"load" json:"load"`
	// DependsOn names an earlier operation: this one is skipped in a run
	// where that one failed a check.
	DependsOn string `yaml:"depends_on" json:"depends_on,omitempty"`
	// Thresholds are pass/fail conditions on the operation's figures in
	// each mode, as --threshold takes them ("p99<20ms", "errors==0"):
	// `pummel suite` exits 3 when one fails.
	Thresholds []string `yaml:"thresholds" json:"thresholds,omitempty"`
}

// Checks are what every response of an operation must pass.
type Checks struct {
	// Status is a code, "2xx" or a list of them (default 2xx and 3xx).
	Status       any     `yaml:"status" json:"status,omitempty"`
	BodyContains string  `yaml:"body_contains" json:"body_contains,omitempty"`
	BodyEquals   *string `yaml:"body_equals" json:"body_equals,omitempty"`
	// JSON maps dotted paths to the values found there.
	JSON map[string]any `yaml:"json" json:"json,omitempty"`
}

// Shape is the load shape: exactly one of its fields is set.
type Shape struct {
	Sequential *Sequential `yaml:"sequential" json:"sequential,omitempty"`
	Closed     *Closed     `yaml:"closed" json:"closed,omitempty"`
	Open       *Open       `yaml:"open" json:"open,omitempty"`
}

// Sequential is Warmup then Requests measured requests, one at a time over
// one keep-alive connection: the latency of one client.
type Sequential struct {
	Warmup   int64 `yaml:"warmup" json:"warmup"`
	Requests int64 `yaml:"requests" json:"requests"`
}

// Closed is a closed loop: each connection sends its next request when
// the previous response arrives, for Duration or Requests.
type Closed struct {
	Connections int    `yaml:"connections" json:"connections"`
	Threads     int    `yaml:"threads" json:"threads,omitempty"`
	Duration    string `yaml:"duration" json:"duration,omitempty"`
	Requests    int64  `yaml:"requests" json:"requests,omitempty"`
	Warmup      string `yaml:"warmup" json:"warmup,omitempty"`
}

// Open is an open loop: Rate requests per second for Duration, whatever
// the server does, latency measured from each intended send time.
type Open struct {
	Rate        float64 `yaml:"rate" json:"rate"`
	Duration    string  `yaml:"duration" json:"duration"`
	Connections int     `yaml:"connections" json:"connections,omitempty"`
	Warmup      string  `yaml:"warmup" json:"warmup,omitempty"`
}
