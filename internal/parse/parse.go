// Package parse reads the values that pummel's command line and plan
// files share, so that both take them alike: durations ("500ms", "10s",
// bare seconds "30") and HTTP status lists ("200", "2xx", "200,204").
//
// It holds no flag and reads no file: its callers (cmd/pummel for flags,
// suite for plans) name the flag or field in their error lines. The engine
// uses its StatusRange values but never parses.
package parse

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Duration reads a duration as pummel's flags and plans take it: a Go
// duration ("500ms", "10s", "5m", "1h") or bare seconds ("30", "1.5"),
// never negative.
func Duration(s string) (time.Duration, bool) {
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		if secs < 0 || secs > math.MaxInt64/float64(time.Second) || math.IsNaN(secs) {
			return 0, false
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, false
	}
	return d, true
}

// StatusRange is an inclusive range of status codes ("200" or "2xx").
type StatusRange struct{ Lo, Hi int }

// Success is the statuses wrk counts as success, 2xx and 3xx: what a
// server must answer to be ready, and what a plan's responses must have
// when it checks no status of its own.
var Success = StatusRange{Lo: 200, Hi: 399}

// Status reads one status code, "200", or a class, "2xx".
func Status(s string) (StatusRange, bool) {
	if len(s) == 3 && s[1:] == "xx" && s[0] >= '1' && s[0] <= '5' {
		lo := int(s[0]-'0') * 100
		return StatusRange{Lo: lo, Hi: lo + 99}, true
	}
	code, err := strconv.Atoi(s)
	return StatusRange{Lo: code, Hi: code}, err == nil && code >= 100 && code <= 599
}

// Statuses reads a list of them separated by commas: "200", "200,204",
// "2xx, 301".
func Statuses(s string) ([]StatusRange, bool) {
	var out []StatusRange
	for part := range strings.SplitSeq(s, ",") {
		r, ok := Status(strings.TrimSpace(part))
		if !ok {
			return nil, false
		}
		out = append(out, r)
	}
	return out, true
}

// StatusIn reports whether status falls in one of ranges.
func StatusIn(ranges []StatusRange, status int) bool {
	for _, r := range ranges {
		if status >= r.Lo && status <= r.Hi {
			return true
		}
	}
	return false
}
