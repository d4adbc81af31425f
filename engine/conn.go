package engine

import (
	"cmp"
	"time"

	"github.com/pummel-dev/pummel/engine/http1"
	"github.com/pummel-dev/pummel/stats/record"
	"github.com/pummel-dev/pummel/stats/requestlog"
)

// Backoff bounds for redialing after a failed dial, or after a connection
// that closed before its first response, so that a dead server, or one
// that drops every connection, costs little CPU.
const (
	minBackoff = 10 * time.Millisecond
	maxBackoff = time.Second
)

// Conn is the part of a connection that both transports share: the
// requests in hand, the parser of their responses, and the counting of
// every outcome by the counting rule (docs/architecture.md). A transport owns the socket, does the
// I/O and the waiting, and tells conn what happened; conn never blocks.
//
// The counting rule: a request is sent once. A close the server made
// before a request was written (an announced close, or a close seen on an
// idle connection) is a reconnect, and the request goes on a new
// connection. Once a request is written, it ends exactly once: as a
// response, or as one error. Bytes that no request asked for are a read
// error of their own.
type Conn struct {
	Load   *Load
	Worker *Worker
	out    *Outbox // where outcomes go: the connection's own, or its loop's
	Parser http1.Parser
	// Ticket is the ticket in hand; its requests (how many) are req
	// written reps times in a row (reps is 1 but for a large pipelined
	// request, which is not copied that many times).
	Ticket   Ticket
	Req      []byte
	Requests int
	Reps     int
	// Inflight counts the requests of req written and not yet ended.
	Inflight int
	// Sent is when req was written: closed-loop latency runs from it.
	Sent time.Time
	// Served counts the responses on the current connection; refused is
	// set when it failed before the first byte of any response, as when a
	// server closes or resets every connection it accepts: the next dial
	// then waits its backoff.
	Served  int
	Refused bool
	backoff time.Duration
	// scriptBufs is what a script's calls need kept; nil without a script that
	// makes each request.
	scriptBufs *scriptBufs
	// BytesIn and bytesOut count wire bytes not yet handed to a batch.
	BytesIn, BytesOut int64
	// Partial counts the bytes of the response being read so far;
	// smallest is the smallest whole response seen on the connection, and
	// shrank is set once a response was smaller than one before it.
	Partial, Smallest int
	Shrank            bool
	// opened numbers the connection in the request log: each one opened
	// takes the next number.
	opened uint32
	// attached is set from Attached to Detached: the connection counts
	// among its worker's open ones.
	attached bool
	// tg is the connection's place in a list of targets (targets.go).
	tg targetState
}

// Init readies c, a connection of worker w in run r, before its first
// dial: its outcomes go to out (the connection's own, or its loop's), and
// its parser recognises a repeated header by last.
func (c *Conn) Init(r *Load, w *Worker, out *Outbox, last *http1.LastHeader) {
	c.Load, c.Worker, c.out = r, w, out
	if r.targets != nil {
		// In a closed loop by time each connection walks the targets'
		// interleaving on its own: they start at different places, so
		// that a short run does not favour the first targets.
		c.tg.next = r.targetStarts.Add(1) - 1
	}
	c.Parser.Head, c.Parser.KeepBody, c.Parser.Last = r.head, r.keepBody, last
	if w.Script != nil {
		c.scriptBufs = new(scriptBufs)
		if w.Script.thread.WantsResponse() {
			c.Parser.Headers = c.keepHeaders
		}
	}
}

// Take makes t the ticket in hand and prepares its requests' bytes; it
// reports false when there is nothing to send (a script failed, and that
// was counted).
func (c *Conn) Take(t Ticket) bool {
	c.Ticket = t
	c.Req, c.Requests, c.Reps = c.prepare(t)
	return c.Requests > 0
}

// Attached starts a new connection: nothing served on it, nothing parsed.
func (c *Conn) Attached() {
	c.Served, c.Refused, c.Partial = 0, false, 0
	if !c.attached {
		c.attached = true
		c.Worker.open.Add(1)
	}
	if c.Worker.log != nil { // numbers for the request log, which alone reads them
		c.opened = c.Load.opened.Add(1)
	}
	c.Parser.Reset()
}

// Wrote notes that req was written whole at now.
func (c *Conn) Wrote(now time.Time) {
	c.Inflight, c.Sent = c.Requests, now
}

// Received feeds bytes read from the connection to the parser, recording
// each response that ends in them. It returns how many bytes it consumed
// and what the connection must do next: a partial header is left
// unconsumed, for the transport to feed again with the bytes that follow.
func (c *Conn) Received(b []byte, now time.Time, hp *http1.HeaderParsers) (int, AfterRead) {
	n := 0
	for n < len(b) {
		if c.Inflight == 0 {
			c.unsolicited(b[n:])
			return len(b), Reopen
		}
		if c.scriptBufs != nil { // the response read next answers request k-inflight of those request() made
			c.Parser.Head = c.scriptBufs.heads[c.Requests-c.Inflight]
		}
		m, ev, err := c.Parser.Feed(b[n:], hp)
		n += m
		c.Partial += m
		if err != nil {
			c.Fail(c.parseFailure(err, b[n-m:], c.Partial-m))
			return len(b), Reopen
		}
		if ev != http1.Responded {
			return n, AwaitMore
		}
		if c.Smallest == 0 || c.Partial < c.Smallest {
			c.Shrank = c.Smallest > 0
			c.Smallest = c.Partial
		}
		c.Partial = 0
		if c.respond(now) {
			return len(b), c.closeAfterResponse(len(b) - n)
		}
	}
	if c.Inflight > 0 {
		return n, AwaitMore
	}
	return n, Ready
}

// Scripted reports whether a script's hooks run for each of c's requests.
func (c *Conn) Scripted() bool { return c.scriptBufs != nil }

// AfterRead is what a connection does after an event.
type AfterRead uint8

const (
	AwaitMore AfterRead = iota // wait for more of the responses in flight
	Ready                      // every request ended; the connection may be reused
	Reopen                     // close the connection; a new one serves what follows
)

// respond records the response the parser just read. It reports whether
// the connection must close after it: the server announced a close, or
// every request opens its own connection.
func (c *Conn) respond(now time.Time) (closing bool) {
	scriptErr := ""
	if c.Worker.Script != nil { // first, so that the response's log line shows its error
		scriptErr = c.scriptResponse(c.Ticket.Phase, c.Parser.Status, c.Parser.Body)
	}
	c.complete(now, scriptErr)
	c.Inflight--
	return c.Parser.CloseConn || c.Load.Config.NoKeepAlive
}

// closeAfterResponse counts what a close after a response leaves: the
// requests written behind it go unanswered (read errors), and bytes after
// the last of them were not asked for.
func (c *Conn) closeAfterResponse(extra int) AfterRead {
	if c.Inflight > 0 {
		c.Fail(Fail(record.Read, causeClosedBeforeResponse))
	} else if extra > 0 {
		c.unsolicited(nil)
	}
	if !c.Load.Config.NoKeepAlive {
		c.Worker.addReconnect(c.Ticket.Phase)
	}
	return Reopen
}

// closedByServer handles the server's close (an EOF, or a reset when
// reset) seen while reading; pending holds the bytes read and not yet
// parsed (a partial header). A body delimited by the close ends with it.
// On a connection with nothing in flight the close is a reconnect: it was
// made before the next request was written.
func (c *Conn) closedByServer(reset bool, now time.Time, pending []byte) {
	if !reset && c.Parser.Closed() {
		c.respond(now)
		c.closeAfterResponse(0)
		return
	}
	if c.Inflight == 0 {
		c.Worker.addReconnect(c.Ticket.Phase)
		return
	}
	if c.speaksHTTP2(pending, c.Partial) {
		c.Refused = true // the first response (speaksHTTP2 asks it): it refuses HTTP/1.1, so back off
		c.Fail(Fail(record.Read, causeSpeaksHTTP2))
		return
	}
	// A response begun, even a head not yet whole, is no refusal.
	started := c.begun(pending)
	c.Refused = c.Served == 0 && !started
	c.Fail(closeFailure(reset, started))
}

// parseFailure classifies a response the parser refused; b holds the
// bytes it was last fed, after consumed bytes of the response.
func (c *Conn) parseFailure(err error, b []byte, consumed int) Failure {
	if c.speaksHTTP2(b, consumed) {
		return Fail(record.Read, causeSpeaksHTTP2)
	}
	return readFailure(err, true)
}

// speaksHTTP2 reports whether b, the bytes read after consumed bytes of
// the response, begin the connection's first response with an HTTP/2
// server's greeting: HTTP/1.1 was sent to a server that speaks HTTP/2
// alone. It is asked on the error path only, so it costs the request
// path nothing.
func (c *Conn) speaksHTTP2(b []byte, consumed int) bool {
	return c.Served == 0 && consumed == 0 && http1.HTTP2Greeting(b)
}

// Fail ends the requests in flight with f. The first of them may have had
// part of a response; those queued behind it had none, so a close mid-
// response leaves one error mid-response and the rest before responding.
func (c *Conn) Fail(f Failure) {
	if c.Inflight == 0 {
		return
	}
	if f.behind != "" && c.Inflight > 1 {
		c.Record(f, 1)
		c.Inflight--
		f.cause = f.behind
	}
	c.Record(f, c.Inflight)
	c.Inflight = 0
}

// unsolicited counts bytes that arrived with no request in flight, b
// (when at hand), as an error of their own: they end no request, so the
// count of requests stays exact. On a fresh connection they may be an
// HTTP/2 server's greeting, sent before the request was.
func (c *Conn) unsolicited(b []byte) {
	cause := causeUnsolicited
	if c.speaksHTTP2(b, c.Partial) {
		cause = causeSpeaksHTTP2
	}
	c.addFailed(c.Ticket.Phase, record.Read, cause, 1, c.Sent)
	c.TakeBytes(c.Ticket.Phase)
}

// complete records the response the parser just read. scriptErr is the
// error the script's response() made of it, counted already.
func (c *Conn) complete(now time.Time, scriptErr string) {
	c.recordResponse(&c.Ticket, c.Sent, now, c.targetOf(c.Requests-c.Inflight), c.Parser.Status, c.Parser.Body, scriptErr)
}

// recordResponse records one response to a request of ticket t (one
// protocol's request or stream) and target (in its row's figures),
// written at sent. Its latency
// runs from sent, or in open loop from the ticket's intended send time.
// This and recordFailure are the counting rule's two ends: every request
// written ends in exactly one of them.
func (c *Conn) recordResponse(t *Ticket, sent, now time.Time, target uint32, status int, body []byte, scriptErr string) {
	o := record.Outcome{Latency: now.Sub(sent), Sent: sent.Sub(c.Load.start), Status: status,
		Rejected: c.Load.rejects(status)}
	if ts := c.Load.targets; ts != nil {
		o.Target = ts.rowOf[target]
	}
	if !t.Due.IsZero() {
		o.Uncorrected, o.Latency, o.Lag = o.Latency, now.Sub(t.Due), sent.Sub(t.Due)
	}
	c.Served++
	c.backoff = 0
	if t.Phase == warmupPhase {
		c.Worker.warm.Add(1)
	} else {
		c.Worker.done.Add(1)
	}
	// A rejected status is already an error: a response counts in one
	// class only.
	why := ""
	if c.Load.Config.Checks.active() && !o.Rejected {
		if why = c.Load.Config.Checks.check(status, body); why != "" {
			c.Worker.addError(t.Phase, record.Validation, why)
		}
	}
	var line requestlog.Record
	var logged *requestlog.Record
	if c.logging(t.Phase) {
		line = c.responseLine(&o, sent, cmp.Or(why, scriptErr))
		line.Target = target
		logged = &line
	}
	c.TakeBytes(t.Phase)
	c.out.add(c.Worker, o, logged, now)
}

// Record counts n requests that failed alike, with the bytes they moved.
func (c *Conn) Record(f Failure, n int) {
	if c.Load.targets != nil {
		c.targetsFailed(f, c.Requests-max(c.Inflight, n), n)
		c.TakeBytes(c.Ticket.Phase)
		return
	}
	c.RecordFailure(c.Ticket.Phase, c.Sent, 0, f, n)
}

// RecordFailure counts n requests of phase and target, written at sent,
// that failed alike with f.
func (c *Conn) RecordFailure(phase int, sent time.Time, target uint32, f Failure, n int) {
	if c.Load.targets != nil {
		c.targetFailed(phase, sent, target, f, n, true)
	} else {
		c.addFailed(phase, f.class, f.cause, n, sent)
	}
	c.TakeBytes(phase)
}

// TakeBytes moves the wire's byte counts into the batch of phase.
func (c *Conn) TakeBytes(phase int) {
	c.out.enter(c.Worker, phase)
	c.out.batch.AddBytes(c.BytesIn, c.BytesOut)
	c.BytesIn, c.BytesOut = 0, 0
}

// NextBackoff doubles the wait before the next dial, from minBackoff up
// to maxBackoff, and returns it.
func (c *Conn) NextBackoff() time.Duration {
	c.backoff = min(max(2*c.backoff, minBackoff), maxBackoff)
	return c.backoff
}

// prepare returns the bytes of the ticket's requests, how many they are
// and how many times the bytes are written: the prebuilt batch, or what
// the script's request() returned, which may hold several pipelined
// requests (with -n, cut to what is left).
func (c *Conn) prepare(t Ticket) (req []byte, k, reps int) {
	if c.Load.targets != nil {
		return c.targetRequests(t), t.count, 1
	}
	if !c.Load.dynamic {
		req, reps = c.Load.requests(t.count)
		return req, t.count, reps
	}
	req, err := c.ScriptRequest()
	if err != nil {
		c.ScriptFailed(t, err)
		return nil, 0, 0
	}
	c.scriptBufs.split(req)
	k = len(c.scriptBufs.ends)
	if extra := k - t.count; extra > 0 && t.claimed {
		_, got := c.Load.claim(extra)
		k = t.count + got
	}
	return req[:c.scriptBufs.ends[k-1]], k, 1
}

// Outbox collects the outcomes of one or more connections for their
// worker: a connection's own in the goroutine transport, shared by all of
// a loop's connections in the event loop. Its outcomes share one phase.
type Outbox struct {
	batch record.Batch
	lines [record.BatchSize]requestlog.Record // the batch's log lines, when logged
	phase int
	since time.Time // when the batch's first outcome was added
}

// batchAge is how long an outbox keeps outcomes before handing them to
// its worker, however few.
const batchAge = 100 * time.Millisecond

// enter makes phase the outbox's phase, handing over what the previous
// phase left.
func (o *Outbox) enter(w *Worker, phase int) {
	if phase != o.phase {
		o.Flush(w)
		o.phase = phase
	}
}

// add notes one response, and its log line if logged; the batch is handed over when full, or when its
// first outcome is a tenth of a second old, so the timeline and progress
// stay current.
func (o *Outbox) add(w *Worker, oc record.Outcome, line *requestlog.Record, now time.Time) {
	if o.batch.Len() == 0 {
		o.since = now
	}
	if line != nil { // only with a request log: a response costs no copy without one
		o.lines[o.batch.Len()] = *line
	}
	if o.batch.Add(oc) || now.Sub(o.since) > batchAge {
		o.Flush(w)
	}
}

// Flush hands the batch, and its log lines, to the worker.
func (o *Outbox) Flush(w *Worker) { w.addBatch(o.phase, &o.batch, o.lines[:o.batch.Len()]) }
