// Package parse reads the values that pummel's command line, plan files
// and thresholds share, so that all take them alike: durations ("500ms",
// "10s", bare seconds "30"), HTTP status lists ("200", "2xx", "200,204"),
// counts ("64", "1k"), rates ("0.5", "20k") and byte sizes ("64MB",
// "64MiB").
//
// It holds no flag and reads no file: its callers (cmd/pummel for flags,
// suite for plans, threshold for bounds) name the flag or field in their
// error lines. The engine uses its StatusRange values but never parses.
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

// countUnits are the suffixes of a count, ×1000 as wrk reads -c 1k; K is
// taken for k.
var countUnits = map[string]float64{"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9}

// binaryUnits are the suffixes of a size that count in powers of 1024.
var binaryUnits = map[string]float64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}

// maxCount is the largest count Count reads, far above any load's.
const maxCount = math.MaxInt32 * 1e3

// CountUnit returns what a count's suffix multiplies it by: 1 for none,
// 1000 for k (or K), a million for M, a billion for G.
func CountUnit(suffix string) (float64, bool) {
	mult, ok := countUnits[suffix]
	return mult, ok
}

// SizeUnit returns what a byte size's suffix multiplies it by: a count's
// suffix with an optional B ("", "B", "k", "kB", "M", "MB", "G", "GB":
// ×1000, as SI reads them), or a binary one ("KiB", "MiB", "GiB": ×1024).
// pummel prints sizes in binary units only (render.FormatBytes), so a
// size it prints reads back as the same number of bytes.
func SizeUnit(suffix string) (float64, bool) {
	if mult, ok := binaryUnits[suffix]; ok {
		return mult, true
	}
	return CountUnit(strings.TrimSuffix(suffix, "B"))
}

// Count reads a count as pummel's flags take it: a whole number with an
// optional suffix CountUnit knows ("64", "1k", "1.5M"), never negative.
func Count(s string) (int64, bool) {
	num, suffix := splitSuffix(s)
	mult, ok := CountUnit(suffix)
	if !ok {
		return 0, false
	}
	return whole(num, mult, maxCount)
}

// Size reads a byte count: a whole number of bytes with an optional
// suffix SizeUnit knows ("65536", "64k", "64MB", "1.5GiB").
func Size(s string) (int64, bool) {
	num, suffix := splitSuffix(s)
	mult, ok := SizeUnit(suffix)
	if !ok {
		return 0, false
	}
	limit := maxCount
	if _, binary := binaryUnits[suffix]; binary {
		limit = math.MaxInt64 / 2
	}
	return whole(num, mult, limit)
}

// Rate reads a rate in requests/s: a positive number, fractions allowed,
// with an optional suffix CountUnit knows ("100", "0.5", "20k").
func Rate(s string) (float64, bool) {
	num, suffix := splitSuffix(s)
	mult, ok := CountUnit(suffix)
	f, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || !(f > 0) || math.IsInf(f*mult, 0) {
		return 0, false
	}
	return f * mult, true
}

// splitSuffix cuts s into its number and the letters that end it: "1.5k"
// is "1.5" and "k", "64MiB" "64" and "MiB".
func splitSuffix(s string) (num, suffix string) {
	i := len(s)
	for i > 0 && ('a' <= s[i-1] && s[i-1] <= 'z' || 'A' <= s[i-1] && s[i-1] <= 'Z') {
		i--
	}
	return s[:i], s[i:]
}

// whole reads num times mult as a whole number from 0 to limit.
func whole(num string, mult, limit float64) (int64, bool) {
	f, err := strconv.ParseFloat(num, 64)
	n := f * mult
	if err != nil || f < 0 || math.IsInf(f, 0) || n > limit || n != math.Trunc(n) {
		return 0, false
	}
	return int64(n), true
}
