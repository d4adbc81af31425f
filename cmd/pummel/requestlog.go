package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/requestlog"
)

// requestLog is --log-requests under way: the log the engine appends to,
// written by its own goroutine through wholefile, so that the file is
// whole or absent, as -o's are: a temporary file beside it, renamed over
// it once the log is closed (a FIFO or device is written as it goes).
type requestLog struct {
	log     *requestlog.Log
	path    string
	written chan error // the writer's outcome
}

// logOutputs lists the request log's file for checkOutputs, if asked for.
func (o *options) logOutputs() []output {
	if o.logRequests == "" {
		return nil
	}
	return []output{{flag: "--log-requests", path: o.logRequests}}
}

// startRequestLog starts writing --log-requests, if asked for, and hands
// the log to cfg; causes are scrubbed as every output's free text is. A
// FIFO's log goes into fifo, opened before the load (see openFIFOs).
func (o *options) startRequestLog(cfg *engine.Config, scrub func(string) string, fifo *os.File) *requestLog {
	if o.logRequests == "" {
		return nil
	}
	r := &requestLog{path: o.logRequests, written: make(chan error, 1), log: requestlog.New(requestlog.Options{
		Open:  len(cfg.Rates) > 0,
		Gzip:  strings.HasSuffix(o.logRequests, ".gz"),
		Scrub: scrub,
	})}
	go func() { r.written <- writeFile(fifo, r.path, r.log.Drain) }()
	cfg.RequestLog = r.log
	return r
}

// finish closes the log once the engine is done with it, waits for its
// file, and says in res how many lines it holds, and how many the load
// outran (a warning too).
func (r *requestLog) finish(res *stats.Result) error {
	if r == nil {
		return nil
	}
	r.log.Close()
	if err := <-r.written; err != nil {
		// The file was not written (or not whole): it holds no lines,
		// and the error, not a count, says why.
		return fmt.Errorf("writing --log-requests %s: %w", r.path, err)
	}
	res.RequestLog = &stats.RequestLog{Lines: r.log.Lines(), Dropped: r.log.Dropped()}
	if n := r.log.Dropped(); n > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("--log-requests dropped %d lines: writing %s fell behind the load, which did not wait for it", n, r.path))
	}
	return nil
}
