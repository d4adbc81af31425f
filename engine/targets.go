package engine

import (
	"bytes"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/pummel-dev/pummel/engine/h3"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/requestlog"
)

// Target is one request of a list of targets (Config.Targets): the
// engine's description of it, from which a transport makes its bytes
// (HTTP/1.1's are serialised once, before the clock, by buildRequest).
// Method, Headers and Body are as Config's; URL must share Config.URL's
// scheme, host and port.
type Target struct {
	Name, Method string
	URL          *url.URL
	Headers      []Header
	Body         []byte
	// Weight is how many times as often as a target of weight 1 it is
	// sent; at least 1.
	Weight int
}

// MaxWeight bounds a target's weight.
const MaxWeight = 10_000

// maxTargetSequence bounds the sum of the weights: the length of the
// interleaving every run walks through.
const maxTargetSequence = 1 << 20

// Targets are sent in a fixed interleaving of their weights (smooth
// weighted round robin, Sequence), so that a run is
// reproducible. Request i of the load takes seq[i mod len(seq)]: with
// -n, i is its place in the count, so that -n a multiple of the weights'
// sum sends each target exactly its share; in open loop, its place on
// the schedule; in a closed loop by time, each connection counts its own
// requests (no count shared per request). A pipelined batch of k
// requests takes k consecutive places, built into the connection's own
// buffer, reused.
type targetSet struct {
	reqs   [][]byte      // each target's serialised request
	h2reqs []*h2.Request // each target's request as HTTP/2 sends it, for HTTP/2
	h3reqs []*h3.Request // and as HTTP/3 does, for HTTP/3
	seq    []uint32      // the interleaving of the weights
	rows   []TargetRow   // the rows of figures (TargetRows)
	rowOf  []uint16      // each target's row
}

// targetState is a connection's place in the interleaving.
type targetState struct {
	first int64  // the place of the batch in hand's first request
	next  int64  // the connection's own count, in a closed loop by time
	buf   []byte // the batch in hand's bytes, when pipelined
}

// buildTargets serialises every target's request, into one block of
// memory (a million targets hold their bytes and a slice each, not a
// buffer each); nil without targets.
func buildTargets(c *Config) (*targetSet, error) {
	if len(c.Targets) == 0 {
		return nil, nil
	}
	rows, rowOf, err := TargetRows(c.Targets)
	if err != nil {
		return nil, err
	}
	ts := &targetSet{rows: rows, rowOf: rowOf, reqs: make([][]byte, len(c.Targets))}
	weights := make([]int, len(c.Targets))
	var arena []byte // every request's bytes, one after another
	ends := make([]int, len(c.Targets))
	for i, t := range c.Targets {
		enc, err := encodeRequest(c.forTarget(t))
		if err != nil {
			return nil, fmt.Errorf("target %d: %w", i+1, err)
		}
		arena = append(arena, enc.http1...)
		ends[i] = len(arena)
		if enc.h2 != nil {
			ts.h2reqs = append(ts.h2reqs, enc.h2)
		}
		if enc.h3 != nil {
			ts.h3reqs = append(ts.h3reqs, enc.h3)
		}
		weights[i] = t.Weight
	}
	arena = slices.Clip(arena)
	for i, end := range ends {
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		ts.reqs[i] = arena[start:end:end] // no request appends into the next
	}
	ts.seq = Sequence(weights)
	return ts, nil
}

// forTarget is c with t's request in place of its own.
func (c *Config) forTarget(t Target) *Config {
	tc := *c
	tc.URL, tc.Method, tc.Headers, tc.Body, tc.Targets = t.URL, t.Method, t.Headers, t.Body, nil
	return &tc
}

// validateTargets checks the list of targets against the rest of c.
func (c *Config) validateTargets() error {
	if len(c.Targets) == 0 {
		return nil
	}
	if c.Script != nil {
		return invalid("targets", "cannot be combined with a script, which makes its own requests")
	}
	if len(c.Targets) > MaxTargets {
		return invalid("targets", "%d targets, at most %d", len(c.Targets), MaxTargets)
	}
	if _, _, err := TargetRows(c.Targets); err != nil {
		return invalid("targets", "%v", err)
	}
	sum := 0
	for i, t := range c.Targets {
		switch {
		case t.URL == nil || Origin(t.URL) != Origin(c.URL):
			return invalid("targets", "target %d is not on %s: a load holds one pool of connections", i+1, Origin(c.URL))
		case t.Weight < 1 || t.Weight > MaxWeight:
			return invalid("targets", "target %d has weight %d, need 1 to %d", i+1, t.Weight, MaxWeight)
		}
		if err := c.forTarget(t).checkRequest(); err != nil {
			return invalid("targets", "target %d: %v", i+1, err)
		}
		sum += t.Weight
	}
	if sum > maxTargetSequence {
		return invalid("targets", "the weights add up to %d, at most %d", sum, maxTargetSequence)
	}
	return nil
}

// at is the target of the load's i-th request (i < 0: a warm-up's).
func (ts *targetSet) at(i int64) uint32 {
	n := int64(len(ts.seq))
	return ts.seq[(i%n+n)%n]
}

// digestInput is what the targets' requests are made from, for
// requestDigest: each one's weight and bytes.
func (ts *targetSet) digestInput(c *Config) []byte {
	var b bytes.Buffer
	for i, req := range ts.reqs {
		b.WriteString(strconv.Itoa(c.Targets[i].Weight) + ":" + strconv.Itoa(len(req)) + ":")
		b.Write(req)
	}
	return b.Bytes()
}

// targetRequests returns the bytes of ticket t's requests and notes the
// place of the first in the interleaving.
func (c *Conn) targetRequests(t Ticket) []byte {
	ts, g := c.Load.targets, &c.tg
	g.first = t.index
	if !t.indexed {
		g.first = g.next
		g.next += int64(t.count)
	}
	if t.count == 1 {
		return ts.reqs[ts.at(g.first)]
	}
	g.buf = g.buf[:0]
	for j := range int64(t.count) {
		g.buf = append(g.buf, ts.reqs[ts.at(g.first+j)]...)
	}
	return g.buf
}

// H2Target is the target of an HTTP/2 stream for ticket t, and its
// request: the load's one request without targets.
func (c *Conn) H2Target(t Ticket) (*h2.Request, uint32) {
	if c.Load.targets == nil {
		return c.Load.h2req, 0
	}
	target := c.streamTarget(t)
	return c.Load.targets.h2reqs[target], target
}

// H3Target is the target of an HTTP/3 stream for ticket t, and its
// request: the load's one request without targets.
func (c *Conn) H3Target(t Ticket) (*h3.Request, uint32) {
	if c.Load.targets == nil {
		return c.Load.h3req, 0
	}
	target := c.streamTarget(t)
	return c.Load.targets.h3reqs[target], target
}

// streamTarget is the target of a stream for ticket t: the ticket's place
// in the targets' interleaving, or in a closed loop by time the
// connection's next.
func (c *Conn) streamTarget(t Ticket) uint32 {
	i := t.index
	if !t.indexed {
		i = c.tg.next
		c.tg.next++
	}
	return c.Load.targets.at(i)
}

// targetOf is the target of request j of the batch in hand; 0 without
// targets.
func (c *Conn) targetOf(j int) uint32 {
	if c.Load.targets == nil {
		return 0
	}
	return c.Load.targets.at(c.tg.first + int64(j))
}

// targetsFailed counts n requests of the batch in hand, from its request
// first on, that failed alike, as addFailed does, and each against its
// target, in the counts and in the request log (the bytes on the first
// line only).
func (c *Conn) targetsFailed(f Failure, first, n int) {
	for j := first; j < first+n; j++ {
		c.targetFailed(c.Ticket.Phase, c.Sent, c.targetOf(j), f, 1, j == first)
	}
}

// targetFailed counts n requests of target that failed alike, in its
// row's errors; the log line shows the bytes not yet taken when withBytes
// is set.
func (c *Conn) targetFailed(phase int, sent time.Time, target uint32, f Failure, n int, withBytes bool) {
	w := c.Worker
	var line *requestlog.Record
	if c.logging(phase) {
		l := c.failedLine(f.class, f.cause, sent)
		l.Target = target
		if !withBytes {
			l.BytesIn, l.BytesOut = 0, 0
		}
		line = &l
	}
	w.addErrors(phase, f.class, f.cause, n, line)
	w.mu.Lock()
	w.recs[phase].AddTargetErrors(int(c.Load.targets.rowOf[target]), f.class, int64(n))
	w.mu.Unlock()
}

// splitTargets makes the worker's measured recorders keep figures per
// row of targets; the warm-up's enter no figure.
func (r *Load) splitTargets(w *Worker) {
	if r.targets == nil {
		return
	}
	for phase := MeasuredPhase; phase < len(w.recs); phase++ {
		w.recs[phase].SplitTargets(len(r.targets.rows))
	}
}

// labelTargets names the result's rows of targets, each by its first
// target's request as recordRequest records the request (URLs
// unredacted: callers redact); stages keep none.
func (r *Load) labelTargets(res *stats.Result) {
	for i := range res.Stages {
		res.Stages[i].Targets = nil
	}
	for i := range res.Targets {
		row := r.targets.rows[i]
		t := r.Config.Targets[row.First]
		rt := &res.Targets[i]
		rt.Name, rt.URL, rt.Weight = row.Name, t.URL.String(), row.Weight
		rt.Method = Method(t.Method, len(t.Body) > 0)
		if row.Targets > 1 {
			rt.Members = row.Targets
		}
	}
}

// Origin is the scheme, host and port a URL's connections go to, with the
// scheme's default port made explicit.
func Origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return u.Scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// Sequence is the fixed interleaving of the targets' weights (smooth
// weighted round robin): its length is the sum of the weights, target i
// appears Weight times in it, spread as evenly as the weights allow.
// Weights 1, 3, 6 give 10 entries, 1, 3 and 6 of them.
//
// Targets of one weight take their turns in order, so it walks the
// distinct weights, not the targets, at each step: a million targets of
// weight 1 cost a million steps of one comparison.
func Sequence(weights []int) []uint32 {
	total := 0
	for _, w := range weights {
		total += w
	}
	classes := weightClasses(weights)
	seq := make([]uint32, 0, total)
	for range total {
		best := -1
		for i := range classes {
			c := &classes[i]
			c.current += c.weight
			if best < 0 || c.current > classes[best].current ||
				c.current == classes[best].current && c.members[c.turn] < classes[best].members[classes[best].turn] {
				best = i
			}
		}
		c := &classes[best]
		seq = append(seq, uint32(c.members[c.turn]))
		if c.turn++; c.turn == len(c.members) {
			c.turn, c.current = 0, c.current-total
		}
	}
	return seq
}

// weightClass is the targets of one weight in smooth weighted round
// robin: each step adds weight to every member's current value, the
// step's choice loses the sum of all weights. Members share one value
// but for those that had one turn more, so the class holds the value of
// the member whose turn it is (the first that has not had one more);
// when all have had their turn, all have lost the sum once more.
type weightClass struct {
	weight, current, turn int
	members               []int // targets, in order
}

// weightClasses groups the targets by weight, in order of first target.
func weightClasses(weights []int) []weightClass {
	var classes []weightClass
	of := map[int]int{}
	for i, w := range weights {
		c, ok := of[w]
		if !ok {
			c = len(classes)
			of[w] = c
			classes = append(classes, weightClass{weight: w})
		}
		classes[c].members = append(classes[c].members, i)
	}
	return classes
}
