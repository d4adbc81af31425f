package engine

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sync"
	"time"

	"github.com/pummel-dev/pummel/engine/script"
	"github.com/pummel-dev/pummel/stats"
	"github.com/valyala/fasthttp"
)

// scripted is a worker's Lua thread (wrk's per-thread state) and the lock
// that serialises its connections' calls into it.
type scripted struct {
	mu     sync.Mutex // guards thread's Lua state
	thread *script.Thread
}

// ScriptTarget is what a script sees as wrk.scheme, host, port, path,
// method, headers, body and shard before init, taken from cfg.
func ScriptTarget(cfg *Config) script.Target {
	t := script.Target{Scheme: cfg.URL.Scheme, Host: cfg.URL.Hostname(), Port: cfg.URL.Port(),
		Path: cfg.URL.RequestURI(), Method: cfg.method(), Body: cfg.Body,
		ShardIndex: cfg.Shard.Index, ShardCount: cfg.Shard.Count}
	if t.Port == "" {
		t.Port = map[string]string{"http": "80", "https": "443"}[t.Scheme]
	}
	for _, h := range cfg.Headers {
		t.Headers = append(t.Headers, script.Header{Name: h.Name, Value: h.Value})
	}
	return t
}

// setupScript creates the script's threads, one per worker. A script that
// only sets wrk.method, path, headers or body changes the request, which is
// then still built once; otherwise the workers call into it per request.
func (r *run) setupScript(workers []*worker) error {
	threads, err := r.cfg.Script.Threads(len(workers), r.dialer.address)
	if err != nil {
		return err
	}
	if r.cfg.Script.Static() {
		return r.useScriptFields(threads[0])
	}
	if r.depth > 1 {
		return errors.New("pipeline: a script whose request() makes the requests pipelines by returning several; drop --pipeline")
	}
	r.dynamic = true
	r.keepBody = r.keepBody || threads[0].WantsResponse()
	for i, w := range workers {
		w.script = &scripted{thread: threads[i]}
	}
	return nil
}

// useScriptFields rebuilds the one request from the fields the script set.
func (r *run) useScriptFields(th *script.Thread) error {
	t, err := th.Fields()
	if err != nil {
		return err
	}
	cfg := *r.cfg
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
	if r.request, err = buildRequest(&cfg); err != nil {
		return err
	}
	r.head = cfg.method() == "HEAD"
	r.pipelined = repeatRequest(r.request, r.depth)
	return nil
}

// scriptDelay asks the worker's script, if it has delay(), how long to
// wait before the ticket's requests; ok is false when delay() failed,
// which is counted against them.
func (c *conn) scriptDelay(t ticket) (d time.Duration, ok bool) {
	s := c.worker.script
	if s == nil || !s.thread.HasDelay() {
		return 0, true
	}
	s.mu.Lock()
	d, err := s.thread.Delay()
	s.mu.Unlock()
	if err != nil {
		c.worker.addErrors(t.phase, stats.Validation, err.Error(), t.count)
		return 0, false
	}
	return d, true
}

// scriptRequest asks the worker's script for the next request bytes; they
// may hold several pipelined requests.
func (c *conn) scriptRequest() ([]byte, error) {
	s := c.worker.script
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.thread.HasRequest() {
		return c.run.request, nil
	}
	var err error
	c.scriptBuf, err = s.thread.AppendRequest(c.scriptBuf[:0])
	return c.scriptBuf, err
}

// keepHeaders copies a response's headers for the script's response(),
// if it has one: the parser goes back to its pool before the call.
func (c *conn) keepHeaders(h *fasthttp.ResponseHeader) {
	c.scriptHeaders = c.scriptHeaders[:0]
	if !c.worker.script.thread.WantsResponse() {
		return
	}
	for k, v := range h.All() {
		c.scriptHeaders = append(c.scriptHeaders, script.Header{Name: string(k), Value: string(v)})
	}
}

// scriptResponse hands a response to the script's response().
func (c *conn) scriptResponse(status int) {
	s := c.worker.script
	if !s.thread.WantsResponse() {
		return
	}
	s.mu.Lock()
	err := s.thread.Response(status, c.scriptHeaders, c.p.body)
	s.mu.Unlock()
	if err != nil {
		c.worker.addError(c.t.phase, stats.Validation, err.Error())
	}
}

// countRequests splits b into the HTTP requests it holds and returns where
// each ends; bytes after the last complete request end a last, partial one.
func countRequests(b []byte, ends []int) []int {
	ends = ends[:0]
	for off := 0; off < len(b); {
		head := bytes.Index(b[off:], []byte("\r\n\r\n"))
		if head < 0 {
			return append(ends, len(b))
		}
		end := off + head + 4
		end = min(end+contentLength(b[off:end]), len(b))
		ends = append(ends, end)
		off = end
	}
	return ends
}

// contentLength finds the Content-Length of a request header block.
func contentLength(head []byte) int {
	for line := range bytes.SplitSeq(head, []byte("\r\n")) {
		name, value, ok := bytes.Cut(line, []byte(":"))
		if ok && bytes.EqualFold(bytes.TrimSpace(name), []byte("Content-Length")) {
			n := 0
			for _, ch := range bytes.TrimSpace(value) {
				if ch < '0' || ch > '9' {
					return 0
				}
				n = n*10 + int(ch-'0')
			}
			return n
		}
	}
	return 0
}

// ScriptDone runs the script's done(summary, latency, requests) with the
// result, writing what it prints to out.
func ScriptDone(p *script.Program, res stats.Result, out io.Writer) error {
	if !p.HasDone() {
		return nil
	}
	h, err := stats.DecodeHistogram(res.LatencyHistogram)
	if err != nil {
		return err
	}
	e := res.Errors
	s := script.Summary{Duration: time.Duration(res.DurationS * float64(time.Second)), Requests: res.Requests, Bytes: res.BytesRead,
		Errors: script.Errors{Connect: e.Connect, Read: e.Read, Write: e.Write, Status: e.Status, Timeout: e.Timeout}}
	return p.Done(s, newLatencyDistribution(h), spreadDistribution{res.ThreadRate}, out)
}
