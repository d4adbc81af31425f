package engine

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/pummel-dev/pummel/engine/http1"
	"github.com/pummel-dev/pummel/engine/script"
	"github.com/pummel-dev/pummel/stats/record"
	"github.com/valyala/fasthttp"
)

// scriptBufs is what a connection keeps for its worker's script: the
// bytes request() returned, where each request in them ends and which are
// HEAD requests (their responses have no body), and the last response's
// headers for response().
type scriptBufs struct {
	request []byte
	ends    []int
	heads   []bool
	headers []script.Header
	// fixed is set when the script has no request(): every request is
	// the load's one, split once.
	fixed bool
}

// split finds the requests in req, the bytes request() returned: where
// each ends, and whether it is a HEAD request. The load's one request,
// sent when the script has no request(), is split only the first time.
func (sb *scriptBufs) split(req []byte) {
	if sb.fixed && len(sb.ends) > 0 {
		return
	}
	sb.ends = http1.CountRequests(req, sb.ends)
	sb.heads = sb.heads[:0]
	start := 0
	for _, end := range sb.ends {
		sb.heads = append(sb.heads, http1.IsHead(req[start:end]))
		start = end
	}
}

// scripted is a worker's Lua thread (wrk's per-thread state) and the lock
// that serialises its connections' calls into it.
type scripted struct {
	mu     sync.Mutex // guards thread's Lua state
	thread *script.Thread
}

// setupScript creates the script's threads, one per worker. The request
// is built once from wrk.method, path, headers and body as the script left
// them, unless its request() makes each request; a script with hooks
// (request, response or delay) is called into by the workers per request.
func (r *Load) setupScript(workers []*Worker) error {
	threads, err := r.Config.Script.Threads(r.scriptContext(), len(workers), r.Dialer.Address)
	if err != nil {
		return err
	}
	r.FromScript = threads[0].HasRequest()
	if !r.FromScript {
		if err := r.useScriptFields(threads[0]); err != nil {
			return err
		}
	}
	if r.Config.Script.Static() {
		return nil
	}
	if r.depth > 1 {
		return errors.New("pipeline: a script whose request() makes the requests pipelines by returning several; drop --pipeline")
	}
	r.dynamic = true
	r.keepBody = r.keepBody || threads[0].WantsResponse()
	for i, w := range workers {
		w.Script = &scripted{thread: threads[i]}
	}
	return nil
}

// scriptContext is the context of the script's threads: it ends a quarter
// of --timeout (at most a second) after the run's. A hook running as the
// run stops may still return (its request is then abandoned, as any in
// flight); one still running after that is stuck, most likely in an
// endless loop: it is stopped, so the run ends within --timeout of -d or
// of the first interrupt, and counted as a validation error naming the
// hook and line.
func (r *Load) scriptContext() context.Context {
	grace := r.DeadlineSlack
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Ctx))
	context.AfterFunc(r.Ctx, func() { time.AfterFunc(grace, cancel) })
	return ctx
}

// useScriptFields rebuilds the one request from the fields the script set.
func (r *Load) useScriptFields(th *script.Thread) error {
	t, err := th.Fields()
	if err != nil {
		return err
	}
	cfg := *r.Config
	u := *cfg.URL
	ref, err := url.Parse(t.Path)
	if err != nil {
		return fmt.Errorf("script: wrk.path %q: %w", t.Path, err)
	}
	u.Path, u.RawPath, u.RawQuery = ref.Path, ref.RawPath, ref.RawQuery
	cfg.URL, cfg.Method, cfg.Body, cfg.Headers = &u, t.Method, t.Body, nil
	for _, h := range t.Headers {
		cfg.Headers = append(cfg.Headers, Header{Name: h.Name, Value: h.Value})
	}
	enc, err := encodeRequest(&cfg)
	if err != nil {
		return err
	}
	r.request, r.h2req, r.h3req = enc.http1, enc.h2, enc.h3
	r.sent = &cfg
	r.head = cfg.method() == "HEAD"
	r.pipelined = repeatRequest(r.request, r.depth)
	return nil
}

// ScriptDelay asks the worker's script, if it has delay(), how long to
// wait before the ticket's requests; ok is false when delay() failed
// (see scriptFailed).
func (c *Conn) ScriptDelay(t Ticket) (d time.Duration, ok bool) {
	s := c.Worker.Script
	if s == nil || !s.thread.HasDelay() {
		return 0, true
	}
	s.mu.Lock()
	d, err := s.thread.Delay()
	s.mu.Unlock()
	if err != nil {
		c.ScriptFailed(t, err)
		return 0, false
	}
	return d, true
}

// ScriptFailed counts the ticket's requests as validation errors with the
// cause err, a script's error, unless err is script.ErrStopped: the run is
// then over, and the script made no error (see scriptRequest).
func (c *Conn) ScriptFailed(t Ticket, err error) {
	if !errors.Is(err, script.ErrStopped) {
		c.addFailed(t.Phase, record.Validation, err.Error(), t.count, time.Now())
	}
}

// ScriptRequest asks the worker's script for the next request bytes; they
// may hold several pipelined requests. It returns script.ErrStopped when
// the script's threads stopped before the call: the connection waited for
// the worker's Lua state while a stuck hook ran as the run ended. The run
// is over then, and the ticket is dropped uncounted: the script made no
// error.
func (c *Conn) ScriptRequest() ([]byte, error) {
	s := c.Worker.Script
	if !s.thread.HasRequest() { // set when the thread was made: no lock needed
		c.scriptBufs.fixed = true
		return c.Load.request, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	c.scriptBufs.request, err = s.thread.AppendRequest(c.scriptBufs.request[:0])
	return c.scriptBufs.request, err
}

// keepHeaders copies a response's headers for the script's response(),
// if it has one: the parser goes back to its pool before the call.
func (c *Conn) keepHeaders(h *fasthttp.ResponseHeader) {
	c.scriptBufs.headers = c.scriptBufs.headers[:0]
	if !c.Worker.Script.thread.WantsResponse() {
		return
	}
	for k, v := range h.All() {
		c.scriptBufs.headers = append(c.scriptBufs.headers, script.Header{Name: string(k), Value: string(v)})
	}
}

// scriptResponse hands a response to the script's response(), and
// returns the error it counted, if any.
func (c *Conn) scriptResponse(phase, status int, body []byte) string {
	s := c.Worker.Script
	if !s.thread.WantsResponse() {
		return ""
	}
	s.mu.Lock()
	err := s.thread.Response(status, c.scriptBufs.headers, body)
	s.mu.Unlock()
	if err == nil || errors.Is(err, script.ErrStopped) {
		return ""
	}
	cause := err.Error()
	c.Worker.addError(phase, record.Validation, cause)
	return cause
}
