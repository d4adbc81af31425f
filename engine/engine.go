// Package engine is the counting core of an HTTP/1.1 and HTTP/2 load:
// the Config and its validation, the run (tickets, the open-loop
// schedule, the stop rule), and the counting of every request's end,
// once, whatever the transport: what a response, a failure or an event
// of the connection means for the requests in hand (conn.go, decide.go,
// h2streams.go, h2decide.go), the checks, and the per-worker
// record.Recorders merged once after the run into a stats.Result.
//
// It owns its connection loop rather than using an HTTP client, so that
// nothing is retried behind the user's back: every request sent is
// counted once, as a response or as an error of one class. The
// transports that move the bytes are packages of their own, behind one
// contract (Transport): the event loop (engine/loop) and a goroutine per
// connection (engine/goroutine); engine/transports picks one for a
// Config and runs it (transports.Run). They drive Conn (HTTP/1.1,
// framed by engine/http1's parser) and H2Streams (HTTP/2, whose frames
// engine/h2's Session turns into stream events); the exported names
// beyond Config and the result are that seam. docs/architecture.md
// draws it.
//
// It never parses flags or plans, never watches the server under test
// and never renders: it takes a validated Config and returns a Result.
package engine

import (
	"context"
	"crypto/tls"
	"net"
	"net/url"
	"time"

	"github.com/pummel-dev/pummel/engine/http1"
	"github.com/pummel-dev/pummel/engine/script"
	"github.com/pummel-dev/pummel/stats/requestlog"
)

// Defaults for the zero values of Config fields.
const (
	DefaultConnections    = 50
	DefaultDuration       = 10 * time.Second
	DefaultTimeout        = 2 * time.Second
	DefaultReadBufferSize = 512
	// MaxPipeline bounds Pipeline.
	MaxPipeline = 1024
	// MaxStreams bounds Streams.
	MaxStreams = 1024
	// MaxRate bounds each of Rates and RampFrom, in requests per second.
	MaxRate = 10_000_000
)

// Config describes one load run. Build it in cmd/pummel, check it with
// Validate and pass it to Run.
type Config struct {
	// URL is the target; its scheme is http or https.
	URL *url.URL
	// Connections is how many connections are held open for the whole run.
	Connections int
	// Threads is how many workers the connections are spread over; each
	// worker owns one record.Recorder. It must not exceed Connections.
	Threads int
	// Duration bounds the measured time; zero means until Requests are done.
	Duration time.Duration
	// Requests, if positive, stops the run after exactly that many requests
	// have ended, as responses or as errors.
	Requests int64
	// Timeout bounds each request, from the start of writing it to the end
	// of reading its response, and each dial.
	Timeout time.Duration
	// NoKeepAlive sends "Connection: close" and opens a connection per
	// request; the dial is then part of each request's latency.
	NoKeepAlive bool
	// Pipeline is how many requests a connection writes at once before
	// reading their responses (HTTP/1.1 pipelining); 0 or 1 means none.
	// Each response's latency runs from the time its batch was sent.
	Pipeline int

	// Protocol is the HTTP version spoken (see Protocol); the zero value
	// is HTTP/1.1. Streams is how many requests each HTTP/2 connection
	// keeps in flight on streams of their own (0 or 1: one), capped by the
	// server's SETTINGS_MAX_CONCURRENT_STREAMS.
	Protocol Protocol
	Streams  int

	// Method, Headers and Body make up the request. Headers keep their
	// names as given; a Host header overrides the URL's host.
	Method  string
	Headers []Header
	Body    []byte
	// Targets, if set, replaces the request above with a list of
	// requests, sent in a fixed interleaving of their weights (see
	// targets.go); URL is then the origin they share.
	Targets []Target

	// Rates, if set, make the run open loop: requests are sent on a shared
	// schedule at each total rate (requests/s, across all connections) in
	// turn, for Duration each, over the same connections. Latency then runs
	// from each request's intended send time.
	Rates []float64
	// RampFrom, if set, holds one starting rate per stage of Rates: stage
	// i then ramps the rate linearly from RampFrom[i] to Rates[i] over its
	// Duration (equal rates: a constant stage). Request k of a ramp is
	// due when the rate's integral from the stage's start reaches k, and
	// the stage sends its mean rate × Duration requests, rounded down.
	RampFrom []float64
	// Warmup is load applied before measuring, excluded from every figure:
	// in open loop at WarmupRate (0: the first stage's starting rate); with Requests, for
	// that long before the Requests measured ones.
	Warmup     time.Duration
	WarmupRate float64
	// WarmupRequests is a closed-loop warm-up by count, for -n runs.
	WarmupRequests int64
	// OnMeasure, if set, is called once with the time the measured phase
	// began: when the clock starts if there is no warm-up, at the end of a
	// timed warm-up, or when the first request after WarmupRequests is
	// handed out. It runs on its own goroutine, and Run returns only after
	// it did; it is not called if the run ends before measuring began.
	// A watcher of the server marks the start of its figures there.
	OnMeasure func(time.Time)

	// Script, if set, is a wrk Lua script (see package script): it may
	// change the request, make each request, see each response, and sees
	// the result in done(). The caller loads it, runs Done and closes it.
	Script *script.Program

	// Progress, if set, is called about four times a second from a
	// background goroutine with a snapshot of the run, for a live display.
	Progress func(Progress)
	// OnTick, if set, is called from a background goroutine as each
	// second of the timeline ends, and once more as the run ends, with
	// the figures so far (see Tick): for an exporter. It must return
	// quickly and never block: the timeline waits for it. Nothing of it
	// runs when it is nil but the count of open connections (Tick's
	// Connections: an atomic add as a connection opens and as it closes).
	OnTick func(Tick)

	// Checks holds the response checks; failures count as validation errors.
	Checks Checks

	// RequestLog, if set, gets one record per measured request (see
	// package requestlog): the caller starts its writer before Run and
	// closes it after.
	RequestLog *requestlog.Log

	// UnixSocket, if set, is dialed instead of the URL's host and port.
	UnixSocket string
	// ConnectTo, if set, redirects the TCP connections (see
	// Config.Address); a rule that does not match the URL is not used.
	// It cannot be combined with UnixSocket.
	ConnectTo []ConnectTo
	// TLS configures https targets; nil means the system roots.
	TLS *tls.Config
	// Dial opens connections; nil means a net.Dialer. Tests inject
	// in-memory listeners here. The engine owns what Dial returns: only it
	// may close the connection.
	Dial func(ctx context.Context, network, address string) (net.Conn, error)
	// Shard, if set, makes this run one part of a load shared by several
	// processes; StartAt, if set, is the wall-clock time the clock starts
	// (the connections are opened just before it).
	Shard   Shard
	StartAt time.Time

	// Engine picks the transport: EngineLoop, EngineGoroutine, or
	// EngineAuto (and ""), the event loop where it can serve the run.
	Engine string

	// ReadBufferSize is the initial per-connection read buffer. It grows
	// (up to 64 KiB) on a connection whose response headers do not fit;
	// bodies larger than it are read through a shared scratch buffer.
	ReadBufferSize int
}

// StreamsPerConn is how many streamsPerConn an HTTP/2 connection keeps open at most.
func (c *Config) StreamsPerConn() int { return max(c.Streams, 1) }

// Header is one request header, name as given.
type Header struct {
	Name, Value string
}

// ScriptLimit is how long the parts of Script that run before the load
// (its top level, setup() and init()) may run in all: the run's own length
// (the warm-up, and Duration for each rate) and Timeout, so that a script
// cannot hold a run past -d and --timeout. It is 0 for a run that
// Requests alone bounds (see script.Options.Limit).
func (c *Config) ScriptLimit() time.Duration {
	if c.Duration == 0 {
		return 0
	}
	return c.Warmup + c.Duration*time.Duration(max(len(c.Rates), 1)) + c.Timeout
}

// warmupRate is the open-loop warm-up's rate.
func (c *Config) warmupRate() float64 {
	if c.WarmupRate > 0 {
		return c.WarmupRate
	}
	return c.stageFrom(0)
}

// ReadBuffer is the initial read buffer: room for a pipelined batch
// of small responses, so that one read can take in a whole batch from a
// server that writes it at once.
func (c *Config) ReadBuffer() int {
	size := DefaultReadBufferSize
	if c.ReadBufferSize > 0 {
		size = c.ReadBufferSize
	}
	return max(size, min(c.Pipeline*pipelinedResponseSize, http1.MaxHeaderSize))
}

// pipelinedResponseSize is the room a pipelined batch's read buffer
// leaves for each of its responses: nginx's empty 200 takes 150 bytes, a
// small JSON answer about 250. It is a buffer size, not a limit: larger
// responses take more reads. At --pipeline 16 and 10,000 connections the
// read buffers take 40 MB.
const pipelinedResponseSize = 256
