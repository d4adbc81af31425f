package record

import (
	"math"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Recorder accumulates one worker's measurements: a latency histogram,
// response and byte counters, status codes and errors by class and cause.
// It is not safe for concurrent use, by design: each worker owns one and
// guards it with its own lock; recorders are merged once, after the run.
type Recorder struct {
	t Totals
	// targets holds one recorder per target, when the load has a list
	// of them (see SplitTargets); nil otherwise.
	targets []*Recorder
}

// Totals is what a Recorder holds, read once the recording is over (see
// Recorder.Totals): the figures a result is built from. Its maps and
// histograms are the recorder's own, not copies: read them, never change
// them.
type Totals struct {
	// Latency holds every response's latency in nanoseconds; MinNs and
	// MaxNs are the exact extremes recorded (MinNs is math.MaxInt64
	// before the first), where the histogram's are rounded to its buckets.
	Latency      *hdrhistogram.Histogram
	MinNs, MaxNs int64
	// Dropped counts latencies outside the histogram's range.
	Dropped      int64
	Requests     int64
	BytesRead    int64
	BytesWritten int64
	// Status counts the responses by status code.
	Status map[int]int64
	// Errors counts failed requests by class; Causes by class and cause.
	Errors [NumErrorClasses]int64
	Causes map[Cause]int64
	// Reconnects counts connections the server closed cleanly between
	// responses.
	Reconnects int64
	// Connects counts successful dials; ConnectSum and ConnectMax are
	// their total and longest time.
	Connects               int64
	ConnectSum, ConnectMax time.Duration

	// Open loop only (nil in closed loop): Uncorrected is the latency
	// from the actual send, Lag how late each send was against its
	// schedule, LateSends the sends later than LateSend.
	Uncorrected *hdrhistogram.Histogram
	Lag         *hdrhistogram.Histogram
	LateSends   int64
	// FirstSend, LastSend and LastDone are the first and last send and
	// the last completion, as offsets from the run's start; AnySent says
	// whether FirstSend is set (nothing was recorded otherwise).
	FirstSend, LastSend, LastDone time.Duration
	AnySent                       bool
}

// LateSend is how late against its schedule a send must be to count as
// late: the client, not the server, held it back.
const LateSend = 2 * time.Millisecond

// New returns an empty Recorder.
func New() *Recorder {
	return &Recorder{t: Totals{
		Latency: NewHistogram(),
		MinNs:   math.MaxInt64,
		Status:  make(map[int]int64),
		Causes:  make(map[Cause]int64),
	}}
}

// NewOpen returns an empty Recorder for an open-loop run, which also
// keeps the uncorrected latency and the schedule lag.
func NewOpen() *Recorder {
	r := New()
	r.t.Uncorrected, r.t.Lag = NewHistogram(), NewHistogram()
	return r
}

// AddBatch folds a batch into the recorder and empties the batch.
func (r *Recorder) AddBatch(b *Batch) {
	t := &r.t
	for i := range b.n {
		o := &b.outcomes[i]
		r.recordLatency(int64(o.Latency))
		t.Status[o.Status]++
		if o.Rejected {
			t.Errors[Status]++
		}
		r.recordOpen(o)
		if !t.AnySent || o.Sent < t.FirstSend {
			t.FirstSend, t.AnySent = o.Sent, true
		}
		t.LastSend = max(t.LastSend, o.Sent)
		t.LastDone = max(t.LastDone, o.Sent+o.Uncorrected)
		if r.targets != nil {
			r.targets[o.Target].addTargetOutcome(o)
		}
	}
	t.Requests += int64(b.n)
	t.BytesRead += b.bytesRead
	t.BytesWritten += b.written
	*b = Batch{}
}

// recordOpen records the open-loop figures of one outcome, if kept.
func (r *Recorder) recordOpen(o *Outcome) {
	t := &r.t
	if t.Uncorrected == nil {
		return
	}
	if t.Uncorrected.RecordValue(max(int64(o.Uncorrected), HistogramMin)) != nil {
		t.Dropped++
	}
	t.Lag.RecordValue(min(max(int64(o.Lag), HistogramMin), HistogramMax)) //nolint:errcheck // clamped into range
	if o.Lag > LateSend {
		t.LateSends++
	}
}

func (r *Recorder) recordLatency(ns int64) {
	t := &r.t
	ns = max(ns, HistogramMin)
	t.MinNs = min(t.MinNs, ns)
	t.MaxNs = max(t.MaxNs, ns)
	if t.Latency.RecordValue(ns) != nil {
		t.Dropped++
	}
}

// AddErrors counts n failed requests of the given class and cause.
func (r *Recorder) AddErrors(class ErrorClass, cause string, n int64) {
	r.t.Errors[class] += n
	if cause != "" {
		r.t.Causes[Cause{class, cause}] += n
	}
}

// AddReconnect counts a connection the server closed cleanly between
// responses, which pummel reopens without counting an error.
func (r *Recorder) AddReconnect() { r.t.Reconnects++ }

// AddConnect notes the time one successful dial (and TLS handshake) took.
func (r *Recorder) AddConnect(d time.Duration) {
	r.t.Connects++
	r.t.ConnectSum += d
	r.t.ConnectMax = max(r.t.ConnectMax, d)
}

// Requests returns the number of responses recorded so far.
func (r *Recorder) Requests() int64 { return r.t.Requests }

// Totals returns what the recorder holds, to build a result from once
// recording is over.
func (r *Recorder) Totals() Totals { return r.t }
