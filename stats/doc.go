// Package stats is pummel's measurement vocabulary and result contract:
// per-worker Recorders (HdrHistogram latencies, counters, status codes,
// errors by class and cause), Merge into one Result, and the renderers that
// write a Result as wrk-compatible text, JSON or markdown.
//
// A Result is plain data: the JSON schema of `pummel -o result.json` is its
// struct tags, documented field by field in result.go.
package stats
