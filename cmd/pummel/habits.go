package main

import (
	"fmt"
	"strings"

	"github.com/pummel-dev/pummel/internal/parse"
	"github.com/urfave/cli/v2"
)

// foreignFlags are flags of ab, hey, oha and Vegeta that pummel does not
// have, each with what it is spelled as here (README.md, "Coming from
// another tool"). Flags pummel shares with them are not listed: they work.
var foreignFlags = map[string]string{
	"p":                  "ab's -p FILE is --body-file FILE (with -T TYPE)",
	"u":                  "ab's -u FILE is -m PUT --body-file FILE",
	"i":                  "ab's -i is -m HEAD",
	"C":                  `ab's -C NAME=VALUE is -H "Cookie: NAME=VALUE"`,
	"z":                  "hey's and oha's -z D is -d D",
	"D":                  "hey's and oha's -D FILE is --body-file FILE",
	"cpus":               "hey's -cpus N is -t N",
	"disable-keepalive":  "hey's and oha's --disable-keepalive is --no-keepalive",
	"j":                  "oha's -j is --format json",
	"json":               "oha's --json is --format json",
	"no-tui":             "oha's --no-tui is -q (--progress never)",
	"latency-correction": "oha's --latency-correction is always on with -R",
	"unix-socket":        "oha's and Vegeta's -unix-socket PATH is --unix PATH",
	"root-certs":         "Vegeta's -root-certs FILE is --cacert FILE",
	"workers":            "Vegeta's -workers N is -c N (one request at a time per connection)",
}

// settingHints add another tool's meaning of a flag to the refusal of a
// setting it made impossible here, by engine.Config's setting name.
var settingHints = map[string]string{
	"threads": "ab's -t SECONDS is -d SECONDS here",
}

// Hints for a value that another tool's flag of the same name takes.
const (
	durationHint = "hey's and oha's -d BODY is -b BODY"
	quietHint    = "-q (--quiet) takes no value; hey's and oha's -q RATE is -R RATE (hey's is per worker: -R RATE×-c)"
)

// isRate reports whether a positional argument reads as a rate: the
// value of another tool's -q, which is --quiet here and takes none.
func isRate(arg string) bool {
	_, ok := parse.Rate(arg)
	return ok
}

// unknownFlag is the line for a flag the command does not have: what
// another tool's spelling is here, or the closest real flag, if any.
func unknownFlag(name string, flags []cli.Flag) string {
	spelled := "--" + name
	if len(name) == 1 {
		spelled = "-" + name
	}
	if hint, ok := foreignFlags[name]; ok && hasFlag(flags, "connections") {
		return fmt.Sprintf("%s: unknown flag; %s", spelled, hint)
	}
	if near := nearestFlag(name, flags); near != "" {
		return fmt.Sprintf("%s: unknown flag; did you mean --%s?", spelled, near)
	}
	return spelled + ": unknown flag (pummel --help lists them)"
}

// hasFlag reports whether flags hold one named name: the load commands
// are the ones ab, hey, oha and Vegeta users come to.
func hasFlag(flags []cli.Flag, name string) bool {
	for _, f := range flags {
		if f.Names()[0] == name {
			return true
		}
	}
	return false
}

// nearestFlag returns the long flag name closest to name, if it is close
// enough to be a misspelling of it: at most two edits, and at most one
// per three letters, so that short names suggest nothing.
func nearestFlag(name string, flags []cli.Flag) string {
	best, bestDistance := "", min(2, len(name)/3)
	for _, f := range flags {
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue // a flag the command parses only to refuse it
		}
		for _, candidate := range f.Names() {
			if len(candidate) < 2 {
				continue
			}
			if d := editDistance(strings.ToLower(name), candidate); d <= bestDistance && (best == "" || d < bestDistance) {
				best, bestDistance = f.Names()[0], d
			}
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diagonal := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			diagonal, row[j] = row[j], min(row[j]+1, row[j-1]+1, diagonal+cost)
		}
	}
	return row[len(b)]
}
