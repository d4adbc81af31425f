package engine

import (
	"math"
	"time"

	"github.com/pummel-dev/pummel/stats/record"
	"github.com/pummel-dev/pummel/stats/requestlog"
)

// The request log (Config.RequestLog) gets a line for each measured
// request that ended: a response, in the batch that records it, and an
// error, with the count that records it; warm-up requests are left out,
// like every figure. Lines are made on the hot path as fixed-size
// records and appended under the worker's lock, which the counting takes
// anyway; the log's own writer formats and writes them.

// logging reports whether requests of the phase are logged.
func (c *Conn) logging(phase int) bool {
	return c.Worker.log != nil && phase != warmupPhase
}

// addFailed counts n requests of the phase that failed alike, sent at
// sent, and logs them.
func (c *Conn) addFailed(phase int, class record.ErrorClass, cause string, n int, sent time.Time) {
	var line *requestlog.Record
	if c.logging(phase) {
		l := c.failedLine(class, cause, sent)
		line = &l
	}
	c.Worker.addErrors(phase, class, cause, n, line)
}

// line starts the log line of a request sent at sent, with the bytes not
// yet taken.
func (c *Conn) line(sent time.Time) requestlog.Record {
	return requestlog.Record{Sent: c.Load.sinceMeasured(sent), BytesIn: c.BytesIn, BytesOut: c.BytesOut,
		Conn: c.opened, Worker: c.Worker.index}
}

// responseLine is the log line of response o; why is a check's failure.
func (c *Conn) responseLine(o *record.Outcome, sent time.Time, why string) requestlog.Record {
	l := c.line(sent)
	l.Status = uint16(min(max(o.Status, 0), math.MaxUint16))
	l.Latency, l.Uncorrected = o.Latency, o.Uncorrected
	switch {
	case o.Rejected:
		l.Class, l.Failed = record.Status, true
	case why != "":
		l.Class, l.Failed, l.Cause = record.Validation, true, why
	}
	return l
}

// failedLine is the log line of a request that failed without a
// response. A request whose dial or write failed has no send time of its
// own: it is logged at when it failed, and a failed dial on no
// connection.
func (c *Conn) failedLine(class record.ErrorClass, cause string, sent time.Time) requestlog.Record {
	if class == record.Connect || class == record.Write {
		sent = time.Now()
	}
	l := c.line(sent)
	l.Class, l.Failed, l.Cause = class, true, cause
	if class == record.Connect {
		l.Conn = 0
	}
	return l
}

// sinceMeasured is t as an offset from the measurement's start.
func (r *Load) sinceMeasured(t time.Time) time.Duration {
	return t.Sub(r.start) - time.Duration(r.measured.Load()-r.start.UnixNano())
}

// logLines appends a batch's lines to the log; w.mu must be held.
func (w *Worker) logLines(lines []requestlog.Record) {
	if w.log == nil {
		return
	}
	for i := range lines {
		w.log.Add(lines[i])
	}
}

// logFailures appends line for n requests that failed alike, the bytes
// on the first only; w.mu must be held.
func (w *Worker) logFailures(line requestlog.Record, n int) {
	for range n {
		w.log.Add(line)
		line.BytesIn, line.BytesOut = 0, 0
	}
}

// flushLog hands the worker's last lines to the log's writer, once its
// connections are done.
func (w *Worker) flushLog() {
	if w.log == nil {
		return
	}
	w.mu.Lock()
	w.log.Flush()
	w.mu.Unlock()
}
