// Package targets reads a list of requests to load together: vegeta's
// `http` format (a "METHOD URL" line, header lines under it, an "@path"
// line for a body file, a blank line between targets) and its JSON lines
// format ({"method","url","header","body"}, body base64), each with two
// extensions: a weight (`# weight N`, "weight") that sends a target N
// times as often, and a name (`# name login`, "name") that thresholds and
// reports may use.
//
// All targets must share one origin (scheme, host and port): a load holds
// one pool of connections. Every error names the file and line.
package targets

import (
	"fmt"
	"net/url"
	"strings"
)

// Max bounds the number of targets: each keeps its own latency histogram
// per worker (about 264 KiB each).
const Max = 100

// MaxWeight bounds a target's weight, so that the interleaving of the
// weights stays small.
const MaxWeight = 10_000

// Target is one request of the list.
type Target struct {
	Name   string // from `# name`, or ""
	Method string // upper case as given; "" in JSON when absent
	URL    *url.URL
	Header []Header // in the order given
	Body   []byte
	Weight int // at least 1
	Line   int // where the target begins in its file
}

// Header is one request header, name as given.
type Header struct {
	Name, Value string
}

// Error is a problem at one line of a targets file.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Origin is the scheme, host and port a URL's connections go to, with the
// scheme's default port made explicit.
func Origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return u.Scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// parseURL checks a target's URL: http or https, with a host, and no
// space or control character.
func parseURL(s string) (*url.URL, error) {
	if strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return nil, fmt.Errorf("URL %q holds a space or control character; escape it (a space is %%20)", s)
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("%q is not an http:// or https:// URL with a host", s)
	}
	return u, nil
}

// checkMethod refuses a method that is not an HTTP token.
func checkMethod(m string) error {
	if m == "" || strings.ContainsFunc(m, func(r rune) bool {
		return r <= ' ' || r >= 0x7f || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r)
	}) {
		return fmt.Errorf("method %q is not an HTTP method", m)
	}
	return nil
}

// Sequence is the fixed interleaving of the targets' weights (smooth
// weighted round robin): its length is the sum of the weights, target i
// appears Weight times in it, spread as evenly as the weights allow.
// Weights 1, 3, 6 give 10 entries, 1, 3 and 6 of them.
func Sequence(weights []int) []uint16 {
	total := 0
	for _, w := range weights {
		total += w
	}
	seq := make([]uint16, 0, total)
	current := make([]int, len(weights))
	for range total {
		best := 0
		for i, w := range weights {
			current[i] += w
			if current[i] > current[best] {
				best = i
			}
		}
		current[best] -= total
		seq = append(seq, uint16(best))
	}
	return seq
}
