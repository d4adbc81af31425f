package record

import (
	"math"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// BatchSize is how many outcomes a Batch holds before it must be added to a
// Recorder.
const BatchSize = 4

// Outcome is one response as a connection saw it.
type Outcome struct {
	// Latency runs to the end of the response from the request's start:
	// its send in closed loop, its intended send time in open loop.
	Latency time.Duration
	// Uncorrected runs from the actual send (open loop; 0 otherwise).
	Uncorrected time.Duration
	// Lag is how late the send was against its schedule (open loop).
	Lag time.Duration
	// Sent is when the request was sent, as an offset from the run's start.
	Sent time.Duration
	// Status is the HTTP status code.
	Status int
	// Rejected marks a status that is an error of class Status: 400 and
	// above (as wrk), unless the user's accepted statuses include it.
	Rejected bool
	// Target is the index of the row of figures the request's target
	// counts in, for a list of targets (see Recorder.SplitTargets); 0
	// otherwise.
	Target uint16
}

// Batch collects the outcomes of a connection's requests without locking,
// so that the worker's Recorder is locked once per BatchSize requests rather
// than once per request. The zero value is ready to use.
type Batch struct {
	n         int
	outcomes  [BatchSize]Outcome
	bytesRead int64
	written   int64
}

// Add notes one response. It reports whether the batch is now full and must
// be passed to (*Recorder).AddBatch before the next Add.
func (b *Batch) Add(o Outcome) (full bool) {
	o.Status = min(max(o.Status, 0), math.MaxUint16)
	b.outcomes[b.n] = o
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

// Tally is what a batch adds to a per-second timeline.
type Tally struct {
	StatusErrors int64 // responses with a rejected status
	BytesRead    int64
}

// Observe records the batch's latencies into h (a per-second histogram)
// and returns its tally; the batch itself is left as it is.
func (b *Batch) Observe(h *hdrhistogram.Histogram) Tally {
	t := Tally{BytesRead: b.bytesRead}
	for i := range b.n {
		h.RecordValue(min(max(int64(b.outcomes[i].Latency), HistogramMin), HistogramMax)) //nolint:errcheck // clamped into range
		if b.outcomes[i].Rejected {
			t.StatusErrors++
		}
	}
	return t
}
