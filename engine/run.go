package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/pummel-dev/pummel/engine/h3"
	"github.com/pummel-dev/pummel/engine/http1"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// Load is the state shared by all connections of one Run.
type Load struct {
	Config  *Config
	request []byte // the serialised request every connection writes
	// pipelined is request repeated depth times, written as one batch.
	pipelined []byte
	targets   *targetSet // the requests of a list of targets; nil without one
	// targetStarts hands each connection its first place in the targets'
	// interleaving.
	targetStarts atomic.Int64
	depth        int  // requests per batch (--pipeline)
	head         bool // HEAD responses have no body
	keepBody     bool // bodies are kept for --expect-body or a script's response()
	dynamic      bool // a script's hooks run for each request
	// FromScript is set when a script's request() makes each request.
	FromScript bool
	// sent is the Config whose request is sent: cfg, or a copy with the
	// fields a script set (see useScriptFields).
	sent   *Config
	digest string // requestDigest of cfg
	Dialer *Dialer
	// DeadlineSlack is how late a timeout may be detected; see engine/goroutine's goConn.deadline.
	DeadlineSlack time.Duration
	Ctx           context.Context // cancelled when the run stops
	cancel        context.CancelFunc

	tr Transport // the connections' transport

	start   time.Time    // when the clock started, after all connections opened
	Sched   *Schedule    // the open-loop schedule; nil in closed loop
	limit   int64        // warm-up plus measured requests with -n; 0: no limit
	issued  atomic.Int64 // requests handed out (open loop, or limited closed loop)
	warming atomic.Bool  // a closed-loop warm-up by time is under way
	// measured is when the measurement began (Unix ns), 0 until then: the
	// end of a timed warm-up, or the first measured request after a
	// warm-up by count.
	measured atomic.Int64
	// hooks counts the Config.OnMeasure calls started; Run waits for them.
	hooks  sync.WaitGroup
	Halted atomic.Bool // set once, when the load stops: see halt
	// opened counts the connections opened, numbering them in the
	// request log.
	opened atomic.Uint32
	// h2req is the request as HTTP/2 sends it, for HTTP/2;
	// streamCap, if set, is 1 + the lowest stream limit a server set
	// below --streams.
	h2req     *h2.Request
	h3req     *h3.Request // the request as HTTP/3 sends it, for HTTP/3
	streamCap atomic.Int64
	// warnings are what a transport said of the run (Warn), each once,
	// and quic what its QUIC connections counted (AddQUIC); warnMu
	// guards both.
	warnMu   sync.Mutex
	warnings []string
	quic     *stats.QUIC
}

// keepBodySize is how much of each response body is kept: for checks and
// a script's response(), or none.
func (r *Load) keepBodySize() int {
	if r.keepBody {
		return http1.MaxKeptBody
	}
	return 0
}

// maxBatchBytes bounds a prebuilt pipelined batch: a larger request is
// written depth times in a row rather than copied depth times.
const maxBatchBytes = 1 << 20

// repeatRequest returns req repeated depth times, or nil when there is no
// pipelining or the batch would be too large to build.
func repeatRequest(req []byte, depth int) []byte {
	if depth < 2 || len(req)*depth > maxBatchBytes {
		return nil
	}
	return bytes.Repeat(req, depth)
}

// requests returns the bytes of k pipelined requests and how many times
// to write them in a row.
func (r *Load) requests(k int) ([]byte, int) {
	if r.pipelined == nil {
		return r.request, k
	}
	return r.pipelined[:k*len(r.request)], 1
}

// Warn adds msg to the run's warnings, once however often it is said.
func (r *Load) Warn(msg string) {
	r.warnMu.Lock()
	defer r.warnMu.Unlock()
	if !slices.Contains(r.warnings, msg) {
		r.warnings = append(r.warnings, msg)
	}
}

// AddQUIC adds what a closed QUIC connection counted to the run's.
func (r *Load) AddQUIC(q stats.QUIC) {
	r.warnMu.Lock()
	defer r.warnMu.Unlock()
	if r.quic == nil {
		r.quic = new(stats.QUIC)
	}
	r.quic.Add(q)
}

// Stopped reports whether the run stopped (the stop rule: Load.halt).
func (r *Load) Stopped() bool { return r.Halted.Load() }

// halt stops the load. This comment is the one statement of how a load
// stops; the transports refer to it as the stop rule.
//
// Once halted is set, no request starts (next hands out no ticket), and
// every request still in flight when its connection sees the stop is
// abandoned, not counted (as wrk): a failure or timeout met after the
// stop is the stop's, not the server's. halt sets halted first, then cancels
// ctx, which ends every timed wait (an open-loop send time, a backoff, a
// script's delay, a dial), then wakes every connection blocked in the
// kernel, which finds halted set:
//
//   - the event loop (engine/loop): each loop's eventfd is written (loop.wake), its
//     epoll_wait returns, and the loop stops before waiting again;
//   - the goroutine transport (engine/goroutine): every live connection's deadline is set
//     in the past (goroutines.halt), so that a blocked read or write fails at
//     once, and a connection dialed after the stop is refused
//     (goroutines.register). Two paths would not see that deadline, so each
//     checks halted itself (goconn.go): a connection moves its deadline
//     forward before each request, which could overwrite the past one, so
//     it checks halted after moving it; and a response's first read may be
//     a direct system call that ignores deadlines (wire.direct), so it is
//     made only while the load runs;
//   - the QUIC transport (engine/quicgo): every live QUIC connection is
//     closed (quicgo.Halt), which ends every stream's blocked read or
//     write, and a waiting stream opener or handshake sees ctx end.
//
// So every connection stops at once, whatever the server does.
func (r *Load) halt() {
	r.Halted.Store(true)
	r.cancel()
	r.tr.Halt()
}

// RunOn carries out the load described by cfg on the transport open
// makes, and returns what was measured; engine/transports.Run gives it
// the transport cfg asks for. All connections are opened before the clock
// starts; if none can be opened, RunOn returns an error. Cancelling ctx
// stops the run early: the result then holds what was gathered so far
// and has Interrupted set.
func RunOn(ctx context.Context, cfg Config, open OpenTransport) (stats.Result, error) {
	r, err := newRun(ctx, &cfg)
	if err != nil {
		return stats.Result{}, err
	}
	defer r.cancel()
	workers := make([]*Worker, cfg.Threads)
	for i := range workers {
		workers[i] = NewWorker(r.phases(), r.Sched != nil)
		workers[i].index = uint16(i)
		r.splitTargets(workers[i])
		if cfg.RequestLog != nil {
			workers[i].log = cfg.RequestLog.Appender()
		}
	}
	if cfg.Script != nil {
		if err := r.setupScript(workers); err != nil {
			return stats.Result{}, err
		}
	}
	if err := r.waitUntil(cfg.StartAt, openLead); err != nil {
		return stats.Result{}, err
	}
	r.tr = open(r, workers) // after the wait: a loop holds descriptors from here on
	if err := r.tr.Open(); err != nil {
		return stats.Result{}, err
	}
	// Dialing thousands of connections leaves garbage the heap would keep
	// as resident memory for the whole run: hand it back before the clock
	// starts. The per-request path makes no garbage and the sampler little
	// (a packed histogram and a few summaries a second), so the heap stays
	// as it is and the collector does not run while the clock runs. It
	// takes milliseconds, so it comes before the wait for --start-at:
	// shards started together then start together.
	debug.FreeOSMemory()
	if err := r.waitUntil(cfg.StartAt, 0); err != nil {
		r.halt()
		<-r.tr.Start()
		return stats.Result{}, err
	}
	r.start = time.Now()
	stopWarmup := r.startClock()
	s := startSampler(r, workers)
	cpu0 := cpuTime()
	end := r.drive(ctx)
	stopWarmup()
	r.hooks.Wait()
	for _, w := range workers {
		w.flushLog()
	}
	if r.Sched != nil && ctx.Err() == nil { // the schedule, not its last response, sets the length
		end = Later(end, r.start.Add(r.Sched.end))
	}
	measureFrom := r.measureFrom()
	if measureFrom.IsZero() {
		measureFrom = end // nothing was measured
	}
	elapsed := max(end.Sub(measureFrom), 0)
	sampled := s.stop()
	client := clientUsage(cpuTime()-cpu0, end.Sub(r.start))
	// Merging and encoding the histograms makes a few megabytes of short-
	// lived garbage, more than the run's connections hold: collected
	// early, it does not raise the process's peak memory.
	defer debug.SetGCPercent(debug.SetGCPercent(endGCPercent))
	res, latencies := r.result(workers, elapsed, sampled.rates)
	r.labelTargets(&res)
	timeline, err := sampled.encodedTimeline()
	if err != nil {
		return stats.Result{}, err
	}
	if cfg.Script != nil && cfg.Script.HasDone() {
		cfg.Script.AddLatencies(latencies) // done() reads them as recorded, not decoded from res
	}
	res.Timeline = timeline
	r.recordSent(&res.Config)
	res.Start = measureFrom.UTC().Format(time.RFC3339Nano)
	res.Interrupted = ctx.Err() != nil
	res.Client = client
	if limit := r.streamCap.Load(); limit > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the server allows %d streams per connection: --streams %d was capped to it", limit-1, cfg.Streams))
	}
	res.Warnings = append(res.Warnings, r.warnings...)
	if r.quic != nil {
		q := *r.quic
		res.QUIC = &q
	}
	if res.Client.Saturated {
		res.Warnings = append(res.Warnings, stats.SaturationWarning(res.Client))
	}
	return res, nil
}

func newRun(ctx context.Context, cfg *Config) (*Load, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	*cfg = cfg.part()
	enc, err := encodeRequest(cfg)
	if err != nil {
		return nil, err
	}
	request := enc.http1
	r := &Load{
		Config:        cfg,
		sent:          cfg,
		digest:        requestDigest(cfg, request),
		request:       request,
		h2req:         enc.h2,
		h3req:         enc.h3,
		head:          cfg.method() == "HEAD",
		keepBody:      cfg.Checks.needsBody(),
		Dialer:        newDialer(cfg),
		DeadlineSlack: min(cfg.Timeout/4, time.Second),
	}
	if r.targets, err = buildTargets(cfg); err != nil {
		return nil, err
	}
	if r.targets != nil {
		r.digest = requestDigest(cfg, r.targets.digestInput(cfg))
	}
	r.depth = max(cfg.Pipeline, 1)
	if len(cfg.Rates) > 0 {
		r.Sched = newSchedule(cfg.warmupRate(), cfg.Warmup, cfg.Rates, cfg.RampFrom, cfg.Duration)
		r.Sched.share(cfg.Shard)
	} else if cfg.Requests > 0 {
		r.limit = cfg.WarmupRequests + cfg.Requests
	}
	r.pipelined = repeatRequest(request, r.depth)
	r.Ctx, r.cancel = context.WithCancel(ctx)
	return r, nil
}

// endGCPercent is the collector's GOGC while a run's result is built.
const endGCPercent = 10

// ErrUnreachable is returned by Run when not one connection could be
// opened: check that the server runs and listens on the URL's address.
var ErrUnreachable = errors.New("cannot connect to the target")

// Unreachable is Run's error when no connection to address could serve the
// run, the first failing with err: a server that is there and cannot serve
// (it speaks another protocol, or allows no stream) says so itself.
func Unreachable(address string, err error) error {
	if errors.Is(err, ErrUnreachable) {
		return err
	}
	return fmt.Errorf("%w: %s: %w", ErrUnreachable, address, err)
}

// drive lets the connections go and runs them until the duration passes,
// the requests or the schedule are done or ctx is cancelled; it returns
// when the run ended.
func (r *Load) drive(ctx context.Context) time.Time {
	finished := r.tr.Start()
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
func (r *Load) timeLimit() time.Duration {
	if r.Sched != nil {
		// Once the schedule is over, a request starts only if it is
		// less than deadlineSlack (a quarter of --timeout, at most 1 s)
		// late (tooLate), so a client that fell behind sends no backlog
		// past -d. The requests in flight get their --timeout: a server
		// that stalled at the end shows them as timeouts, never as
		// requests that vanished. The run ends as soon as none is left.
		return r.Sched.end + r.Config.Timeout + r.DeadlineSlack
	}
	if r.Config.Duration == 0 {
		return 0
	}
	return r.Config.Warmup + r.Config.Duration
}

// phases is how many recorder sets a worker keeps.
func (r *Load) phases() int {
	if r.Sched != nil {
		return 1 + len(r.Config.Rates)
	}
	return 2
}

// recorders returns the workers' recorders of the given phases.
func recorders(ws []*Worker, phases ...int) []*record.Recorder {
	var recs []*record.Recorder
	for _, w := range ws {
		for _, p := range phases {
			recs = append(recs, w.recs[p])
		}
	}
	return recs
}

// startClock sets when the measurement begins, now that r.start is set:
// at the end of a timed warm-up, or (with WarmupRequests) when the first
// measured request is handed out (see markMeasured). It returns a func
// that stops the warm-up's timer, for when the run ends.
func (r *Load) startClock() (stop func()) {
	cfg := r.Config
	if cfg.WarmupRequests > 0 {
		return func() {}
	}
	r.measured.Store(r.start.Add(cfg.Warmup).UnixNano())
	if cfg.Warmup == 0 {
		r.onMeasure(r.start)
		return func() {}
	}
	closed := r.Sched == nil
	r.warming.Store(closed)
	r.hooks.Add(1)
	t := time.AfterFunc(cfg.Warmup, func() {
		defer r.hooks.Done()
		r.warming.Store(false)
		if cfg.OnMeasure != nil {
			cfg.OnMeasure(r.start.Add(cfg.Warmup))
		}
	})
	return func() {
		if t.Stop() {
			r.hooks.Done()
		}
	}
}

// markMeasured starts the measurement at now if it has not started: the
// first measured request after a warm-up by count.
func (r *Load) markMeasured(now time.Time) {
	if r.measured.CompareAndSwap(0, now.UnixNano()) {
		r.onMeasure(now)
	}
}

// onMeasure calls Config.OnMeasure with t, if set, on its own goroutine.
func (r *Load) onMeasure(t time.Time) {
	if r.Config.OnMeasure == nil {
		return
	}
	r.hooks.Add(1)
	go func() {
		defer r.hooks.Done()
		r.Config.OnMeasure(t)
	}()
}

// measureFrom is when the measurement began, zero if it has not yet.
func (r *Load) measureFrom() time.Time {
	if n := r.measured.Load(); n != 0 {
		return time.Unix(0, n)
	}
	return time.Time{}
}

// Later is the later of a and b.
func Later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
