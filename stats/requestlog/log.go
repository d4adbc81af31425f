// Package requestlog is the per-request log (--log-requests): one CSV line
// per request, made from fixed-size records that workers append on the hot
// path into buffers they own, and formatted and written by one background
// writer. Its memory is bounded whatever the run's length: when the writer
// falls behind and no buffer is free, records are dropped and counted,
// never waited for.
package requestlog

import (
	"sync/atomic"
	"time"

	"github.com/pummel-dev/pummel/stats/record"
)

// Record is one request as the log keeps it until its line is written.
// It holds no pointer but Cause, which is one of the engine's causes, so
// appending it allocates nothing.
type Record struct {
	// Sent is when the request was written, from the measurement's start.
	Sent time.Duration
	// Latency runs to the end of the response (from the intended send in
	// open loop); Uncorrected from the actual send (open loop only). Both
	// are 0 for an error.
	Latency, Uncorrected time.Duration
	// BytesIn and BytesOut are the wire bytes taken with this request.
	BytesIn, BytesOut int64
	// Cause is why it failed within Class (empty if it did not).
	Cause string
	// Conn numbers the connection it went on (0: none, a failed dial);
	// Target is the target's index in its list; Worker is its worker.
	Conn   uint32
	Target uint32
	Worker uint16
	// Status is the response's status code, 0 for an error without one.
	Status uint16
	// Class is the error class, meaningful when Failed is set.
	Class  record.ErrorClass
	Failed bool
}

// Sizes of the log's buffers: a buffer holds BufferRecords records, and
// there are at most baseBuffers plus buffersPerAppender for each appender
// of them, never more than maxBuffers (about 20 KiB each).
const (
	BufferRecords      = 256
	baseBuffers        = 32
	buffersPerAppender = 2
	maxBuffers         = 1024
)

// Log is a per-request log under way. Workers append to it through their
// Appenders; Drain writes it; Close ends it.
type Log struct {
	opts    Options
	full    chan []Record // buffers waiting for the writer
	free    chan []Record // buffers the writer has written
	limit   atomic.Int64  // how many buffers may exist
	made    atomic.Int64  // how many exist
	dropped atomic.Int64
	lines   atomic.Int64
}

// Options shape a Log.
type Options struct {
	// Open marks an open-loop run: the uncorrected latency is written.
	Open bool
	// Gzip compresses what Drain writes.
	Gzip bool
	// Scrub cleans a cause of secrets before it is written (nil: as is).
	Scrub func(string) string
	// Buffers and Records override the number of buffers (no appender
	// adds to it) and their size; zero means the defaults.
	Buffers, Records int
}

// New returns a Log; start Drain on its own goroutine to write it.
func New(opts Options) *Log {
	l := &Log{opts: opts, full: make(chan []Record, maxBuffers), free: make(chan []Record, maxBuffers)}
	if l.opts.Records <= 0 {
		l.opts.Records = BufferRecords
	}
	l.limit.Store(baseBuffers)
	if opts.Buffers > 0 {
		l.limit.Store(int64(min(opts.Buffers, maxBuffers)))
	}
	return l
}

// Appender returns a new appender; create them before the load starts.
// Its share of the buffers is made at once, so that the load does not
// allocate them while the writer catches up.
func (l *Log) Appender() *Appender {
	if l.opts.Buffers == 0 && l.limit.Load() < maxBuffers {
		l.limit.Add(buffersPerAppender)
		l.made.Add(buffersPerAppender)
		for range buffersPerAppender {
			l.free <- make([]Record, 0, l.opts.Records)
		}
	}
	return &Appender{log: l}
}

// Close ends the log once every appender has flushed: Drain writes what
// is left and returns.
func (l *Log) Close() { close(l.full) }

// Dropped returns how many records were dropped because the writer was
// behind; final once every appender has flushed.
func (l *Log) Dropped() int64 { return l.dropped.Load() }

// Lines returns how many lines Drain wrote, header excluded; final once
// Drain returned.
func (l *Log) Lines() int64 { return l.lines.Load() }

// Appender is one worker's way into the log. It is not safe for
// concurrent use: its owner appends and flushes from one goroutine, or
// under one lock.
type Appender struct {
	log *Log
	buf []Record // the buffer being filled; nil when none is held
}

// Add appends r, or counts it dropped when the writer is behind and no
// buffer is free. It never blocks, formats or writes.
func (a *Appender) Add(r Record) {
	if a.buf == nil && !a.take() {
		a.log.dropped.Add(1)
		return
	}
	a.buf = append(a.buf, r)
	if len(a.buf) == cap(a.buf) {
		a.Flush()
	}
}

// take gets a buffer: a written one, or a new one while fewer than the
// limit exist.
func (a *Appender) take() bool {
	l := a.log
	select {
	case b := <-l.free:
		a.buf = b[:0]
		return true
	default:
	}
	if l.made.Add(1) > l.limit.Load() {
		l.made.Add(-1)
		return false
	}
	a.buf = make([]Record, 0, l.opts.Records)
	return true
}

// Flush hands the buffer in hand, if any, to the writer. It never
// blocks: full holds room for every buffer that can exist.
func (a *Appender) Flush() {
	if len(a.buf) > 0 {
		a.log.full <- a.buf
		a.buf = nil
	}
}
