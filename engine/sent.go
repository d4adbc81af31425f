package engine

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/pummel-dev/pummel/stats"
)

// RequestFromScript is stats.Config.Request when a script's request()
// made each request: no one method, path, header set or body was sent.
const RequestFromScript = "from script"

// RecordRequest writes into rc the request c describes, as outputs record
// it: URL, method, headers and body size, unredacted (callers redact), and
// the script's file name and digest.
func (c *Config) RecordRequest(rc *stats.Config) {
	rc.URL = c.URL.String()
	rc.Method = c.method()
	rc.BodyBytes = len(c.Body)
	rc.Headers = nil
	for _, h := range c.Headers {
		rc.Headers = append(rc.Headers, h.Name+": "+h.Value)
	}
	rc.Script, rc.ScriptSHA256 = "", ""
	if c.Script != nil {
		rc.Script, rc.ScriptSHA256 = c.Script.Name(), c.Script.SHA256()
	}
}

// recordSent writes into rc what the run sent, rather than what the
// command line asked for: the request as a script's wrk fields left it,
// or, when its request() made each request, that it did (Request), with
// no method, headers or body. RequestSHA256 digests the bytes of the one
// request, or what request() makes them from (the command line's request,
// the script and its arguments): the same for every part of one sharded
// load, and different for another request, whatever its length.
func (r *load) recordSent(rc *stats.Config) {
	r.sent.RecordRequest(rc)
	h := sha256.New()
	h.Write(r.request)
	if r.fromScript {
		r.cfg.Script.WriteInputs(h)
		rc.Method, rc.Headers, rc.BodyBytes, rc.Request = "", nil, 0, RequestFromScript
	}
	rc.RequestSHA256 = hex.EncodeToString(h.Sum(nil))
}
