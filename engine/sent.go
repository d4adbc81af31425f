package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/pummel-dev/pummel/stats"
)

// RequestFromScript is stats.Config.Request when a script's request()
// made each request: no one method, path, header set or body was sent.
const RequestFromScript = "from script"

// recordSent writes into rc what the run sent, rather than what the
// command line asked for: the request as a script's wrk fields left it,
// or, when its request() made each request, that it did (Request), with
// no method, headers or body; and the digest of what the requests were
// made from (see requestDigest).
func (r *Load) recordSent(rc *stats.Config) {
	r.sent.recordRequest(rc)
	if r.FromScript {
		rc.Method, rc.Headers, rc.BodyBytes, rc.Request = "", nil, 0, RequestFromScript
	}
	rc.RequestSHA256 = r.digest
}

// requestDigest is the hex SHA-256 of what the requests of a run of c
// are made from: c's URL and request (request, its bytes), and a script's
// source and arguments. Every part of one sharded load has the same, even
// when its script sends each part other requests (wrk.shard); another
// body, header value or script has another, whatever its length.
func requestDigest(c *Config, request []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%d:", c.URL, len(request))
	h.Write(request)
	if c.Script != nil {
		c.Script.WriteInputs(h)
	}
	return hex.EncodeToString(h.Sum(nil))
}
