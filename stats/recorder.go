package stats

import (
	"math"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram bounds: nanosecond resolution from 1 ns to 1 hour, 3 significant
// digits (wrk2 keeps the same precision). One such histogram takes about 264 KiB,
// which is why there is one per worker and not one per connection.
const (
	HistogramMin    = 1
	HistogramMax    = int64(time.Hour)
	HistogramDigits = 3
)

// NewHistogram returns an empty latency histogram with pummel's bounds.
func NewHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(HistogramMin, HistogramMax, HistogramDigits)
}

// Recorder accumulates one worker's measurements: a latency histogram,
// response and byte counters, status codes and errors by class and cause.
// It is not safe for concurrent use, by design: each worker owns one and
// guards it with its own lock; recorders are merged once, after the run.
type Recorder struct {
	latency      *hdrhistogram.Histogram
	minNs, maxNs int64
	dropped      int64 // latencies outside the histogram's range
	requests     int64
	bytesRead    int64
	bytesWritten int64
	status       map[int]int64
	errors       [NumErrorClasses]int64
	causes       map[Cause]int64
	reconnects   int64
	connects     int64
	connectSum   time.Duration
	connectMax   time.Duration

	// Open loop only (nil in closed loop): latency from the actual send,
	// and how late each send was against its schedule.
	uncorrected *hdrhistogram.Histogram
	lag         *hdrhistogram.Histogram
	lateSends   int64 // sends later than LateSend
	// Send and completion times, as offsets from the run's start; zero
	// when nothing was recorded.
	firstSend, lastSend, lastDone time.Duration
	anySent                       bool // firstSend is set
}

// LateSend is how late against its schedule a send must be to count as
// late: the client, not the server, held it back.
const LateSend = 2 * time.Millisecond

// NewRecorder returns an empty Recorder.
func NewRecorder() *Recorder {
	return &Recorder{
		latency: NewHistogram(),
		minNs:   math.MaxInt64,
		status:  make(map[int]int64),
		causes:  make(map[Cause]int64),
	}
}

// NewOpenRecorder returns an empty Recorder for an open-loop run, which
// also keeps the uncorrected latency and the schedule lag.
func NewOpenRecorder() *Recorder {
	r := NewRecorder()
	r.uncorrected, r.lag = NewHistogram(), NewHistogram()
	return r
}

// AddBatch folds a batch into the recorder and empties the batch.
func (r *Recorder) AddBatch(b *Batch) {
	for i := range b.n {
		o := &b.outcomes[i]
		r.recordLatency(int64(o.Latency))
		r.status[o.Status]++
		if o.Rejected {
			r.errors[Status]++
		}
		r.recordOpen(o)
		if !r.anySent || o.Sent < r.firstSend {
			r.firstSend, r.anySent = o.Sent, true
		}
		r.lastSend = max(r.lastSend, o.Sent)
		r.lastDone = max(r.lastDone, o.Sent+o.Uncorrected)
	}
	r.requests += int64(b.n)
	r.bytesRead += b.bytesRead
	r.bytesWritten += b.written
	*b = Batch{}
}

// recordOpen records the open-loop figures of one outcome, if kept.
func (r *Recorder) recordOpen(o *Outcome) {
	if r.uncorrected == nil {
		return
	}
	if r.uncorrected.RecordValue(max(int64(o.Uncorrected), HistogramMin)) != nil {
		r.dropped++
	}
	r.lag.RecordValue(min(max(int64(o.Lag), HistogramMin), HistogramMax)) //nolint:errcheck // clamped into range
	if o.Lag > LateSend {
		r.lateSends++
	}
}

func (r *Recorder) recordLatency(ns int64) {
	ns = max(ns, HistogramMin)
	r.minNs = min(r.minNs, ns)
	r.maxNs = max(r.maxNs, ns)
	if r.latency.RecordValue(ns) != nil {
		r.dropped++
	}
}

// AddErrors counts n failed requests of the given class and cause.
func (r *Recorder) AddErrors(class ErrorClass, cause string, n int64) {
	r.errors[class] += n
	if cause != "" {
		r.causes[Cause{class, cause}] += n
	}
}

// AddReconnect counts a connection the server closed cleanly between
// responses, which pummel reopens without counting an error.
func (r *Recorder) AddReconnect() { r.reconnects++ }

// AddConnect notes the time one successful dial (and TLS handshake) took.
func (r *Recorder) AddConnect(d time.Duration) {
	r.connects++
	r.connectSum += d
	r.connectMax = max(r.connectMax, d)
}

// Requests returns the number of responses recorded so far.
func (r *Recorder) Requests() int64 { return r.requests }
