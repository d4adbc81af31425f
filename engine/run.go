package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pummel-dev/pummel/stats"
)

// run is the state shared by all connections of one Run.
type run struct {
	cfg     *Config
	request []byte // the serialised request every connection writes
	// pipelined is request repeated depth times, written as one batch.
	pipelined []byte
	depth     int  // requests per batch (--pipeline)
	head      bool // HEAD responses have no body
	keepBody  bool // bodies are kept for --expect-body or a script's response()
	dynamic   bool // a script makes each request
	dialer    *dialer
	// deadlineSlack is how late a timeout may be detected; see conn.deadline.
	deadlineSlack time.Duration
	ctx           context.Context // cancelled when the run stops
	cancel        context.CancelFunc

	start   time.Time    // when the clock started, after all connections opened
	sched   *schedule    // the open-loop schedule; nil in closed loop
	limit   int64        // warm-up plus measured requests with -n; 0: no limit
	issued  atomic.Int64 // requests handed out (open loop, or limited closed loop)
	warming atomic.Bool  // a closed-loop warm-up by time is under way
	// measured is when the measurement began (Unix ns), 0 until then: the
	// end of a timed warm-up, or the first measured request after a
	// warm-up by count.
	measured atomic.Int64
	halted   atomic.Bool // set once, when the run stops

	mu   sync.Mutex            // guards open
	open map[net.Conn]struct{} // connections to wake when the run stops
}

// requests returns the bytes of k pipelined requests.
func (r *run) requests(k int) []byte { return r.pipelined[:k*len(r.request)] }

func (r *run) stopped() bool { return r.halted.Load() }

// halt stops the run: new requests are refused and every blocked read or
// write returns at once. Requests in flight are abandoned, not counted (as wrk).
func (r *run) halt() {
	r.halted.Store(true)
	r.cancel()
	r.mu.Lock()
	defer r.mu.Unlock()
	for nc := range r.open {
		nc.SetDeadline(time.Unix(1, 0)) //nolint:errcheck // best effort wake-up
	}
}

// register records an open connection; it refuses once the run has stopped.
func (r *run) register(nc net.Conn) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.halted.Load() {
		return false
	}
	r.open[nc] = struct{}{}
	return true
}

func (r *run) unregister(nc net.Conn) {
	r.mu.Lock()
	delete(r.open, nc)
	r.mu.Unlock()
}

// Run carries out the load described by cfg and returns what was measured.
// All connections are opened before the clock starts; if none can be
// opened, Run returns an error. Cancelling ctx stops the run early: the
// result then holds what was gathered so far and has Interrupted set.
func Run(ctx context.Context, cfg Config) (stats.Result, error) {
	r, err := newRun(ctx, &cfg)
	if err != nil {
		return stats.Result{}, err
	}
	defer r.cancel()
	workers := make([]*worker, cfg.Threads)
	for i := range workers {
		workers[i] = newWorker(r.phases(), r.sched != nil)
	}
	if cfg.Script != nil {
		if err := r.setupScript(workers); err != nil {
			return stats.Result{}, err
		}
	}
	conns := make([]*conn, cfg.Connections)
	for i := range conns {
		conns[i] = newConn(r, workers[i%len(workers)])
	}
	if err := r.openAll(conns); err != nil {
		return stats.Result{}, err
	}
	l := spawn(conns)
	// Dialing thousands of connections leaves garbage the heap would keep
	// as resident memory for the whole run: hand it back before the clock
	// starts. The per-request path makes no garbage and the sampler little
	// (a packed histogram and a few summaries a second), so the heap stays
	// as it is and the collector does not run while the clock runs.
	debug.FreeOSMemory()
	r.start = time.Now()
	if cfg.WarmupRequests == 0 { // else the first measured request starts the clock
		r.measured.Store(r.start.Add(cfg.Warmup).UnixNano())
	}
	if cfg.Warmup > 0 && r.sched == nil {
		r.warming.Store(true)
		defer time.AfterFunc(cfg.Warmup, func() { r.warming.Store(false) }).Stop()
	}
	s := startSampler(r, workers)
	cpu0 := cpuTime()
	end := r.drive(ctx, l)
	if r.sched != nil && ctx.Err() == nil { // the schedule, not its last response, sets the length
		end = later(end, r.start.Add(r.sched.end))
	}
	measureFrom := r.measureFrom()
	if measureFrom.IsZero() {
		measureFrom = end // nothing was measured
	}
	elapsed := max(end.Sub(measureFrom), 0)
	sampled := s.stop()
	client := clientUsage(cpuTime()-cpu0, end.Sub(r.start))
	res := r.result(workers, elapsed, sampled.rates)
	timeline, err := sampled.encodedTimeline()
	if err != nil {
		return stats.Result{}, err
	}
	res.Timeline = timeline
	res.Start = measureFrom.UTC().Format(time.RFC3339Nano)
	res.Interrupted = ctx.Err() != nil
	res.Client = client
	if res.Client.Saturated {
		res.Warnings = append(res.Warnings, saturationWarning(res.Client))
	}
	return res, nil
}

func newRun(ctx context.Context, cfg *Config) (*run, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	request, err := buildRequest(cfg)
	if err != nil {
		return nil, err
	}
	r := &run{
		cfg:           cfg,
		request:       request,
		head:          cfg.method() == "HEAD",
		keepBody:      cfg.Expect.needsBody(),
		dialer:        newDialer(cfg),
		deadlineSlack: min(cfg.Timeout/4, time.Second),
		open:          make(map[net.Conn]struct{}, cfg.Connections),
	}
	r.depth = max(cfg.Pipeline, 1)
	if len(cfg.Rates) > 0 {
		r.sched = newSchedule(cfg.warmupRate(), cfg.Warmup, cfg.Rates, cfg.Duration)
	} else if cfg.Requests > 0 {
		r.limit = cfg.WarmupRequests + cfg.Requests
	}
	r.pipelined = bytes.Repeat(request, r.depth)
	r.ctx, r.cancel = context.WithCancel(ctx)
	return r, nil
}

// openAll dials every connection before the clock starts, dialers at a
// time. A dial that fails here is retried, and counted, once the run has
// started. So that a target that drops connections costs one dial
// timeout rather than one per wave of dialers, a dialer whose dial fails
// before any connection opened stops, and all stop one dial timeout after
// the first failure.
func (r *run) openAll(conns []*conn) error {
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	var wg sync.WaitGroup
	var opened, next atomic.Int64
	var firstErr error
	var cutoff *time.Timer
	var once sync.Once
	for range min(len(conns), dialers) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(conns)) && ctx.Err() == nil; i = next.Add(1) - 1 {
				err := r.openFirst(ctx, conns[i])
				if err == nil {
					opened.Add(1)
					continue
				}
				once.Do(func() {
					firstErr = err
					cutoff = time.AfterFunc(r.cfg.Timeout, cancel)
				})
				if opened.Load() == 0 {
					return // unreachable so far: this dialer stops
				}
			}
		})
	}
	wg.Wait()
	if cutoff != nil {
		cutoff.Stop()
	}
	if opened.Load() == 0 {
		if r.ctx.Err() != nil {
			return r.ctx.Err()
		}
		return fmt.Errorf("%w: %s: %w", ErrUnreachable, r.dialer.address, firstErr)
	}
	return nil
}

// dialers is how many connections openAll dials at once. A goroutine per
// connection would cost thousands of goroutine stacks, each grown by the
// dial, for no gain: dials on a LAN or loopback take well under a
// millisecond, so 10,000 connections still open in a fraction of a second.
const dialers = 256

// errStopped is why a connection opened as the run stopped was dropped.
var errStopped = errors.New("the run stopped")

// openFirst dials c's first connection, before the clock starts.
func (r *run) openFirst(ctx context.Context, c *conn) error {
	t := time.Now()
	nc, err := r.dialer.open(ctx)
	if err != nil {
		return err
	}
	if r.cfg.NoKeepAlive { // each request dials its own: this one only proves the target is there
		nc.Close()
		return nil
	}
	if !r.register(nc) {
		nc.Close()
		return errStopped
	}
	c.worker.addConnect(measuredPhase, time.Since(t))
	c.attach(nc)
	return nil
}

// ErrUnreachable is returned by Run when not one connection could be
// opened: check that the server runs and listens on the URL's address.
var ErrUnreachable = errors.New("cannot connect to the target")

// launch holds the connection goroutines, started but waiting at gate.
type launch struct {
	gate     chan struct{} // closed to let the connections go
	finished chan struct{} // closed when every connection's loop returned
}

// spawn starts a goroutine per connection that waits at the gate, so that
// every connection sends from the moment the clock starts: started one
// after another once the clock runs, 10,000 of them took the first half
// second of the run to get going.
func spawn(conns []*conn) *launch {
	l := &launch{gate: make(chan struct{}), finished: make(chan struct{})}
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() {
			<-l.gate
			c.loop()
		})
	}
	go func() { wg.Wait(); close(l.finished) }()
	return l
}

// drive lets the connections go and runs them until the duration passes,
// the requests or the schedule are done or ctx is cancelled; it returns
// when the run ended.
func (r *run) drive(ctx context.Context, l *launch) time.Time {
	close(l.gate)
	finished := l.finished
	var deadline <-chan time.Time
	if limit := r.timeLimit(); limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		deadline = t.C
	}
	select {
	case <-finished:
	case <-deadline:
	case <-ctx.Done():
	}
	end := time.Now()
	r.halt()
	<-finished
	return end
}

// timeLimit is how long the run may last; 0 means until the requests are done.
func (r *run) timeLimit() time.Duration {
	if r.sched != nil {
		// The schedule ends the run; this only bounds waiting for the
		// last responses.
		return r.sched.end + r.cfg.Timeout + r.deadlineSlack
	}
	if r.cfg.Duration == 0 {
		return 0
	}
	return r.cfg.Warmup + r.cfg.Duration
}

// phases is how many recorder sets a worker keeps.
func (r *run) phases() int {
	if r.sched != nil {
		return 1 + len(r.cfg.Rates)
	}
	return 2
}

// recorders returns the workers' recorders of the given phases.
func recorders(ws []*worker, phases ...int) []*stats.Recorder {
	var recs []*stats.Recorder
	for _, w := range ws {
		for _, p := range phases {
			recs = append(recs, w.recs[p])
		}
	}
	return recs
}

// measureFrom is when the measurement began, zero if it has not yet.
func (r *run) measureFrom() time.Time {
	if n := r.measured.Load(); n != 0 {
		return time.Unix(0, n)
	}
	return time.Time{}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
