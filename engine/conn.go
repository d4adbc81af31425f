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

// conn is the part of a connection that both transports share: the
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
type conn struct {
	load   *load
	worker *worker
	out    *outbox // where outcomes go: the connection's own, or its loop's
	p      http1.Parser
	// t is the ticket in hand; its k requests are req written reps times
	// in a row (reps is 1 but for a large pipelined request, which is not
	// copied k times).
	t    ticket
	req  []byte
	k    int
	reps int
	// inflight counts the requests of req written and not yet ended.
	inflight int
	// sent is when req was written: closed-loop latency runs from it.
	sent time.Time
	// served counts the responses on the current connection; refused is
	// set when it failed before the first byte of any response, as when a
	// server closes or resets every connection it accepts: the next dial
	// then waits its backoff.
	served  int
	refused bool
	backoff time.Duration
	// sc is what a script's calls need kept; nil without a script that
	// makes each request.
	sc *scriptBufs
	// bytesIn and bytesOut count wire bytes not yet handed to a batch.
	bytesIn, bytesOut int64
	// partial counts the bytes of the response being read so far;
	// smallest is the smallest whole response seen on the connection, and
	// shrank is set once a response was smaller than one before it.
	partial, smallest int
	shrank            bool
	// opened numbers the connection in the request log: each one opened
	// takes the next number.
	opened uint32
	// tg is the connection's place in a list of targets (targets.go).
	tg targetState
}

func (c *conn) init(r *load, w *worker, out *outbox, last *http1.LastHeader) {
	c.load, c.worker, c.out = r, w, out
	if r.targets != nil {
		// In a closed loop by time each connection walks the targets'
		// interleaving on its own: they start at different places, so
		// that a short run does not favour the first targets.
		c.tg.next = r.targetStarts.Add(1) - 1
	}
	c.p.Head, c.p.KeepBody, c.p.Last = r.head, r.keepBody, last
	if w.script != nil {
		c.sc = new(scriptBufs)
		if w.script.thread.WantsResponse() {
			c.p.Headers = c.keepHeaders
		}
	}
}

// take makes t the ticket in hand and prepares its requests' bytes; it
// reports false when there is nothing to send (a script failed, and that
// was counted).
func (c *conn) take(t ticket) bool {
	c.t = t
	c.req, c.k, c.reps = c.prepare(t)
	return c.k > 0
}

// attached starts a new connection: nothing served on it, nothing parsed.
func (c *conn) attached() {
	c.served, c.refused, c.partial = 0, false, 0
	if c.worker.log != nil { // numbers for the request log, which alone reads them
		c.opened = c.load.opened.Add(1)
	}
	c.p.Reset()
}

// wrote notes that req was written whole at now.
func (c *conn) wrote(now time.Time) {
	c.inflight, c.sent = c.k, now
}

// received feeds bytes read from the connection to the parser, recording
// each response that ends in them. It returns how many bytes it consumed
// and what the connection must do next: a partial header is left
// unconsumed, for the transport to feed again with the bytes that follow.
func (c *conn) received(b []byte, now time.Time, hp *http1.HeaderParsers) (int, next) {
	n := 0
	for n < len(b) {
		if c.inflight == 0 {
			c.unsolicited(b[n:])
			return len(b), reopen
		}
		if c.sc != nil { // the response read next answers request k-inflight of those request() made
			c.p.Head = c.sc.heads[c.k-c.inflight]
		}
		m, ev, err := c.p.Feed(b[n:], hp)
		n += m
		c.partial += m
		if err != nil {
			c.fail(c.parseFailure(err, b[n-m:], c.partial-m))
			return len(b), reopen
		}
		if ev != http1.Responded {
			return n, awaitMore
		}
		if c.smallest == 0 || c.partial < c.smallest {
			c.shrank = c.smallest > 0
			c.smallest = c.partial
		}
		c.partial = 0
		if c.respond(now) {
			return len(b), c.closeAfterResponse(len(b) - n)
		}
	}
	if c.inflight > 0 {
		return n, awaitMore
	}
	return n, ready
}

// next is what a connection does after an event.
type next uint8

const (
	awaitMore next = iota // wait for more of the responses in flight
	ready                 // every request ended; the connection may be reused
	reopen                // close the connection; a new one serves what follows
)

// respond records the response the parser just read. It reports whether
// the connection must close after it: the server announced a close, or
// every request opens its own connection.
func (c *conn) respond(now time.Time) (closing bool) {
	scriptErr := ""
	if c.worker.script != nil { // first, so that the response's log line shows its error
		scriptErr = c.scriptResponse(c.t.phase, c.p.Status, c.p.Body)
	}
	c.complete(now, scriptErr)
	c.inflight--
	return c.p.CloseConn || c.load.cfg.NoKeepAlive
}

// closeAfterResponse counts what a close after a response leaves: the
// requests written behind it go unanswered (read errors), and bytes after
// the last of them were not asked for.
func (c *conn) closeAfterResponse(extra int) next {
	if c.inflight > 0 {
		c.fail(fail(record.Read, causeClosedBeforeResponse))
	} else if extra > 0 {
		c.unsolicited(nil)
	}
	if !c.load.cfg.NoKeepAlive {
		c.worker.addReconnect(c.t.phase)
	}
	return reopen
}

// closedByServer handles the server's close (an EOF, or a reset when
// reset) seen while reading; pending holds the bytes read and not yet
// parsed (a partial header). A body delimited by the close ends with it.
// On a connection with nothing in flight the close is a reconnect: it was
// made before the next request was written.
func (c *conn) closedByServer(reset bool, now time.Time, pending []byte) {
	if !reset && c.p.Closed() {
		c.respond(now)
		c.closeAfterResponse(0)
		return
	}
	if c.inflight == 0 {
		c.worker.addReconnect(c.t.phase)
		return
	}
	c.refused = c.served == 0 && !c.p.Started()
	if c.speaksHTTP2(pending, c.partial) {
		c.fail(fail(record.Read, causeSpeaksHTTP2))
		return
	}
	c.fail(closeFailure(reset, c.p.Started()))
}

// parseFailure classifies a response the parser refused; b holds the
// bytes it was last fed, after consumed bytes of the response.
func (c *conn) parseFailure(err error, b []byte, consumed int) failure {
	if c.speaksHTTP2(b, consumed) {
		return fail(record.Read, causeSpeaksHTTP2)
	}
	return readFailure(err, true)
}

// speaksHTTP2 reports whether b, the bytes read after consumed bytes of
// the response, begin the connection's first response with an HTTP/2
// server's greeting: HTTP/1.1 was sent to a server that speaks HTTP/2
// alone. It is asked on the error path only, so it costs the request
// path nothing.
func (c *conn) speaksHTTP2(b []byte, consumed int) bool {
	return c.served == 0 && consumed == 0 && http1.HTTP2Greeting(b)
}

// fail ends the requests in flight with f. The first of them may have had
// part of a response; those queued behind it had none, so a close mid-
// response leaves one error mid-response and the rest before responding.
func (c *conn) fail(f failure) {
	if c.inflight == 0 {
		return
	}
	if f.behind != "" && c.inflight > 1 {
		c.record(f, 1)
		c.inflight--
		f.cause = f.behind
	}
	c.record(f, c.inflight)
	c.inflight = 0
}

// unsolicited counts bytes that arrived with no request in flight, b
// (when at hand), as an error of their own: they end no request, so the
// count of requests stays exact. On a fresh connection they may be an
// HTTP/2 server's greeting, sent before the request was.
func (c *conn) unsolicited(b []byte) {
	cause := causeUnsolicited
	if c.speaksHTTP2(b, c.partial) {
		cause = causeSpeaksHTTP2
	}
	c.addFailed(c.t.phase, record.Read, cause, 1, c.sent)
	c.takeBytes(c.t.phase)
}

// complete records the response the parser just read. scriptErr is the
// error the script's response() made of it, counted already.
func (c *conn) complete(now time.Time, scriptErr string) {
	c.recordResponse(&c.t, c.sent, now, c.targetOf(c.k-c.inflight), c.p.Status, c.p.Body, scriptErr)
}

// recordResponse records one response to a request of ticket t (one
// protocol's request or stream) and target (in its row's figures),
// written at sent. Its latency
// runs from sent, or in open loop from the ticket's intended send time.
// This and recordFailure are the counting rule's two ends: every request
// written ends in exactly one of them.
func (c *conn) recordResponse(t *ticket, sent, now time.Time, target uint32, status int, body []byte, scriptErr string) {
	o := record.Outcome{Latency: now.Sub(sent), Sent: sent.Sub(c.load.start), Status: status,
		Rejected: c.load.rejects(status)}
	if ts := c.load.targets; ts != nil {
		o.Target = ts.rowOf[target]
	}
	if !t.due.IsZero() {
		o.Uncorrected, o.Latency, o.Lag = o.Latency, now.Sub(t.due), sent.Sub(t.due)
	}
	c.served++
	c.backoff = 0
	if t.phase == warmupPhase {
		c.worker.warm.Add(1)
	} else {
		c.worker.done.Add(1)
	}
	// A rejected status is already an error: a response counts in one
	// class only.
	why := ""
	if c.load.cfg.Checks.active() && !o.Rejected {
		if why = c.load.cfg.Checks.check(status, body); why != "" {
			c.worker.addError(t.phase, record.Validation, why)
		}
	}
	var line requestlog.Record
	var logged *requestlog.Record
	if c.logging(t.phase) {
		line = c.responseLine(&o, sent, cmp.Or(why, scriptErr))
		line.Target = target
		logged = &line
	}
	c.takeBytes(t.phase)
	c.out.add(c.worker, o, logged, now)
}

// record counts n requests that failed alike, with the bytes they moved.
func (c *conn) record(f failure, n int) {
	if c.load.targets != nil {
		c.targetsFailed(f, c.k-max(c.inflight, n), n)
		c.takeBytes(c.t.phase)
		return
	}
	c.recordFailure(c.t.phase, c.sent, 0, f, n)
}

// recordFailure counts n requests of phase and target, written at sent,
// that failed alike with f.
func (c *conn) recordFailure(phase int, sent time.Time, target uint32, f failure, n int) {
	if c.load.targets != nil {
		c.targetFailed(phase, sent, target, f, n, true)
	} else {
		c.addFailed(phase, f.class, f.cause, n, sent)
	}
	c.takeBytes(phase)
}

// takeBytes moves the wire's byte counts into the batch of phase.
func (c *conn) takeBytes(phase int) {
	c.out.enter(c.worker, phase)
	c.out.batch.AddBytes(c.bytesIn, c.bytesOut)
	c.bytesIn, c.bytesOut = 0, 0
}

// nextBackoff doubles the wait before the next dial, from minBackoff up
// to maxBackoff, and returns it.
func (c *conn) nextBackoff() time.Duration {
	c.backoff = min(max(2*c.backoff, minBackoff), maxBackoff)
	return c.backoff
}

// prepare returns the bytes of the ticket's requests, how many they are
// and how many times the bytes are written: the prebuilt batch, or what
// the script's request() returned, which may hold several pipelined
// requests (with -n, cut to what is left).
func (c *conn) prepare(t ticket) (req []byte, k, reps int) {
	if c.load.targets != nil {
		return c.targetRequests(t), t.count, 1
	}
	if !c.load.dynamic {
		req, reps = c.load.requests(t.count)
		return req, t.count, reps
	}
	req, err := c.scriptRequest()
	if err != nil {
		c.scriptFailed(t, err)
		return nil, 0, 0
	}
	c.sc.split(req)
	k = len(c.sc.ends)
	if extra := k - t.count; extra > 0 && t.claimed {
		_, got := c.load.claim(extra)
		k = t.count + got
	}
	return req[:c.sc.ends[k-1]], k, 1
}

// outbox collects the outcomes of one or more connections for their
// worker: a connection's own in the goroutine transport, shared by all of
// a loop's connections in the event loop. Its outcomes share one phase.
type outbox struct {
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
func (o *outbox) enter(w *worker, phase int) {
	if phase != o.phase {
		o.flush(w)
		o.phase = phase
	}
}

// add notes one response, and its log line if logged; the batch is handed over when full, or when its
// first outcome is a tenth of a second old, so the timeline and progress
// stay current.
func (o *outbox) add(w *worker, oc record.Outcome, line *requestlog.Record, now time.Time) {
	if o.batch.Len() == 0 {
		o.since = now
	}
	if line != nil { // only with a request log: a response costs no copy without one
		o.lines[o.batch.Len()] = *line
	}
	if o.batch.Add(oc) || now.Sub(o.since) > batchAge {
		o.flush(w)
	}
}

// flush hands the batch, and its log lines, to the worker.
func (o *outbox) flush(w *worker) { w.addBatch(o.phase, &o.batch, o.lines[:o.batch.Len()]) }
