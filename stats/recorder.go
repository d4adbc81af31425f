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

// BatchSize is how many outcomes a Batch holds before it must be added to a
// Recorder.
const BatchSize = 16

// Batch collects the outcomes of a connection's requests without locking,
// so that the worker's Recorder is locked once per BatchSize requests rather
// than once per request. The zero value is ready to use.
type Batch struct {
	n         int
	latency   [BatchSize]int64  // nanoseconds
	status    [BatchSize]uint16 // HTTP status code
	bytesRead int64
	written   int64
}

// Add notes one response. It reports whether the batch is now full and must
// be passed to (*Recorder).AddBatch before the next Add.
func (b *Batch) Add(latency time.Duration, status int) (full bool) {
	b.latency[b.n] = int64(latency)
	b.status[b.n] = uint16(min(max(status, 0), math.MaxUint16))
	b.n++
	return b.n == BatchSize
}

// AddBytes notes bytes moved on the wire that belong to this batch's requests.
func (b *Batch) AddBytes(read, written int64) {
	b.bytesRead += read
	b.written += written
}

// Len returns how many responses the batch holds.
func (b *Batch) Len() int { return b.n }

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
}

// NewRecorder returns an empty Recorder.
func NewRecorder() *Recorder {
	return &Recorder{
		latency: NewHistogram(),
		minNs:   math.MaxInt64,
		status:  make(map[int]int64),
		causes:  make(map[Cause]int64),
	}
}

// AddBatch folds a batch into the recorder and empties the batch.
func (r *Recorder) AddBatch(b *Batch) {
	for i := range b.n {
		r.recordLatency(b.latency[i])
		r.status[int(b.status[i])]++
		if b.status[i] >= 400 {
			r.errors[Status]++
		}
	}
	r.requests += int64(b.n)
	r.bytesRead += b.bytesRead
	r.bytesWritten += b.written
	*b = Batch{}
}

func (r *Recorder) recordLatency(ns int64) {
	ns = max(ns, HistogramMin)
	r.minNs = min(r.minNs, ns)
	r.maxNs = max(r.maxNs, ns)
	if r.latency.RecordValue(ns) != nil {
		r.dropped++
	}
}

// AddError counts one failed request of the given class and cause.
func (r *Recorder) AddError(class ErrorClass, cause string) {
	r.AddErrors(class, cause, 1)
}

// AddErrors counts n failed requests of the given class and cause.
func (r *Recorder) AddErrors(class ErrorClass, cause string, n int64) {
	r.errors[class] += n
	if cause != "" {
		r.causes[Cause{class, cause}] += n
	}
}

// AddBytes counts bytes that belong to no completed response (a request
// that failed after part of it was written or read).
func (r *Recorder) AddBytes(read, written int64) {
	r.bytesRead += read
	r.bytesWritten += written
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
