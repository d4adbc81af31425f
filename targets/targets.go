// Package targets reads a list of requests to load together: vegeta's
// `http` format (a "METHOD URL" line, header lines under it, an "@path"
// line for a body file, a blank line between targets) and its JSON lines
// format ({"method","url","header","body"}, body base64), each with two
// extensions: a weight (`# weight N`, "weight") that sends a target N
// times as often, and a name (`# name login`, "name") that thresholds and
// reports may use. Targets that share a name share a row of figures in
// the result; a list holds at most engine.MaxRows names and
// engine.MaxTargets targets.
//
// All targets must share one origin (scheme, host and port): a load holds
// one pool of connections. Every error names the file and line.
package targets

import (
	"fmt"
	"net/url"

	"github.com/pummel-dev/pummel/engine"
)

// Target is one request of the list: Method is upper case as given (""
// in JSON when absent), Headers in the order given, Weight at least 1.
type Target struct {
	engine.Target
	Line int // where the target begins in its file
}

// Error is a problem at one line of a targets file.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// parseURL checks a target's URL: http or https, with a host, and no
// space or control character.
func parseURL(s string) (*url.URL, error) {
	u, err := engine.ParseURL(s)
	if err != nil {
		return nil, fmt.Errorf("URL %w", err)
	}
	return u, nil
}
