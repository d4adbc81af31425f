package suite

import (
	"crypto/rand"
	"fmt"
	"net/url"
	"runtime"
	"strings"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/english"
)

// defaultOpenConnections is the open loop's connections when not given.
const defaultOpenConnections = 8

// shape checks a load shape: exactly one of sequential, closed and open.
// The engine checks the figures further (Config.Validate).
func (c *compiler) shape(field string, s Shape) (shape, error) {
	set := 0
	for _, given := range []bool{s.Sequential != nil, s.Closed != nil, s.Open != nil} {
		if given {
			set++
		}
	}
	if set != 1 {
		return shape{}, c.pos.errorf(field, "give exactly one of sequential, closed and open")
	}
	switch {
	case s.Sequential != nil:
		q := s.Sequential
		if q.Requests < 1 || q.Warmup < 0 {
			return shape{}, c.pos.errorf(field+".sequential.requests", "want at least 1 measured request (and a warm-up of 0 or more)")
		}
		return shape{kind: "sequential", connections: 1, threads: 1, requests: q.Requests, warmupRequests: q.Warmup}, nil
	case s.Closed != nil:
		return c.closed(field+".closed", s.Closed)
	}
	return c.open(field+".open", s.Open)
}

func (c *compiler) closed(field string, p *Closed) (shape, error) {
	sh := shape{kind: "closed", connections: p.Connections, threads: p.Threads, requests: p.Requests}
	if p.Connections < 1 {
		return sh, c.pos.errorf(field+".connections", "want at least 1 connection")
	}
	if sh.threads == 0 {
		sh.threads = min(p.Connections, runtime.NumCPU())
	}
	var err error
	if sh.duration, err = c.duration(field+".duration", p.Duration, 0); err != nil {
		return sh, err
	}
	if sh.duration == 0 && sh.requests <= 0 {
		return sh, c.pos.errorf(field+".duration", "give a duration or a count of requests")
	}
	if sh.warmup, err = c.duration(field+".warmup", p.Warmup, 0); err != nil {
		return sh, err
	}
	if sh.warmup > 0 && sh.requests > 0 {
		return sh, c.pos.errorf(field+".warmup", "a timed warm-up needs a duration, not a count of requests (use the sequential shape's warmup count)")
	}
	return sh, nil
}

func (c *compiler) open(field string, p *Open) (shape, error) {
	sh := shape{kind: "open", connections: p.Connections, threads: 1, rate: p.Rate}
	if sh.connections == 0 {
		sh.connections = defaultOpenConnections
	}
	if !(p.Rate > 0) {
		return sh, c.pos.errorf(field+".rate", "want a rate above 0 requests/s")
	}
	var err error
	if sh.duration, err = c.duration(field+".duration", p.Duration, 0); err != nil {
		return sh, err
	}
	if sh.duration == 0 {
		return sh, c.pos.errorf(field+".duration", "required: how long to send at the rate")
	}
	sh.warmup, err = c.duration(field+".warmup", p.Warmup, 0)
	return sh, err
}

// describe says how the load is applied, for the tables.
func (s shape) describe() string {
	switch s.kind {
	case "sequential":
		return fmt.Sprintf("sequential: %d warm-up + %d measured requests, one at a time over 1 keep-alive connection", s.warmupRequests, s.requests)
	case "open":
		d := fmt.Sprintf("open loop: %g requests/s for %s over %s", s.rate, s.duration, english.Plural(s.connections, "connection"))
		return d + warmupText(s)
	}
	var limits []string
	if s.duration > 0 {
		limits = append(limits, s.duration.String())
	}
	if s.requests > 0 {
		limits = append(limits, fmt.Sprintf("%d requests", s.requests))
	}
	return fmt.Sprintf("closed loop: %s, %s, %s", english.Plural(s.connections, "keep-alive connection"), english.Plural(s.threads, "thread"),
		strings.Join(limits, " or ")) + warmupText(s)
}

func warmupText(s shape) string {
	if s.warmup == 0 {
		return ""
	}
	return fmt.Sprintf(", after a %s warm-up", s.warmup)
}

// body is an operation's request body: inline text (a template), a file's
// content, or a count of random bytes drawn afresh for each run.
type body struct {
	text   *string
	data   []byte
	random int
}

// given reports whether the operation sends a body at all.
func (b body) given() bool {
	return b.text != nil && *b.text != "" || b.random > 0 || len(b.data) > 0
}

// bytes is the body to send in one run, placeholders expanded.
func (b body) bytes(x *expander) ([]byte, error) {
	switch {
	case b.text != nil:
		s, err := x.expand(*b.text)
		return []byte(s), err
	case b.random > 0:
		data := make([]byte, b.random)
		rand.Read(data) //nolint:errcheck // crypto/rand.Read never fails
		return data, nil
	}
	return b.data, nil
}

// config builds the engine's configuration of the operation, with the
// placeholders of the run expanded.
func (op *recordedConfig) config(x *expander) (engine.Config, error) {
	raw, err := x.expand(op.url)
	if err != nil {
		return engine.Config{}, err
	}
	u, err := url.Parse(raw)
	if err != nil {
		return engine.Config{}, fmt.Errorf("url: %w", err)
	}
	cfg := engine.Config{
		URL: u, Method: op.method, Timeout: op.timeout, Checks: op.checks,
		Connections: op.shape.connections, Threads: op.shape.threads,
		Requests: op.shape.requests, WarmupRequests: op.shape.warmupRequests,
		Duration: op.shape.duration, Warmup: op.shape.warmup,
		Protocol: op.protocol, Streams: op.streams,
	}
	if op.shape.rate > 0 {
		cfg.Rates = []float64{op.shape.rate}
	}
	for _, h := range op.headers {
		v, err := x.expand(h.Value)
		if err != nil {
			return cfg, err
		}
		cfg.Headers = append(cfg.Headers, engine.Header{Name: h.Name, Value: v})
	}
	cfg.Body, err = op.body.bytes(x)
	return cfg, err
}
