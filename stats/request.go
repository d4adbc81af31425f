package stats

import (
	"fmt"
	"slices"
)

// RequestsDiffer is the error of merging the parts of a sharded load
// whose requests differ (Config.RequestSHA256): another body of the same
// length, another header value or another script. First and Second are
// the parts' shard indexes.
type RequestsDiffer struct{ First, Second int }

func (e *RequestsDiffer) Error() string {
	return e.Naming(fmt.Sprintf("shard %d", e.First), fmt.Sprintf("shard %d", e.Second))
}

// Naming is the error's message with the two parts called first and
// second: by the files they were read from, say.
func (e *RequestsDiffer) Naming(first, second string) string {
	return fmt.Sprintf("%s and %s sent different requests (config.request_sha256 differs): merge the parts of one load only", first, second)
}

// sameRequest refuses parts a and b of a sharded load when both record a
// digest of their request and the digests differ. Results of versions
// that recorded none are compared by their settings alone.
func sameRequest(a, b Result) error {
	if digested(a, b) && a.Config.RequestSHA256 != b.Config.RequestSHA256 {
		return &RequestsDiffer{a.Shard.Index, b.Shard.Index}
	}
	return nil
}

// digested reports whether both a and b record a digest of their request.
func digested(a, b Result) bool { return a.Config.RequestSHA256 != "" && b.Config.RequestSHA256 != "" }

// requestSettings are the settings of loadSettings that record the request
// a part sent: with a script, they may differ between the parts of one
// load (wrk.shard), which the digest of what the requests were made from
// tells apart from another load.
var requestSettings = []string{"url", "method", "headers", "body_bytes"}

// partSettings are the settings parts a and b of one load share: all of
// shardSettings, less requestSettings when both parts digest their request
// (sameRequest compares them then).
func partSettings(a, b Result) []setting {
	if !digested(a, b) {
		return shardSettings
	}
	return slices.DeleteFunc(slices.Clone(shardSettings), func(s setting) bool { return slices.Contains(requestSettings, s.name) })
}
