package main

import (
	"fmt"
	"maps"
	"slices"
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

// unknownCommand refuses a command line without a command whose first
// positional argument is no URL but a misspelt command ("pummel capcity
// …", "pummel reprot x.json"), which would else be read as the URL of a
// load, or fail first on the misspelt command's flags: nil for anything
// else, which the load's own checks then judge.
func unknownCommand(args []argument, app *cli.App) error {
	names := commandNames(app)
	if len(args) > 0 && !args[0].positional && names[args[0].text] {
		return nil // a command was given
	}
	i := slices.IndexFunc(args, func(a argument) bool { return a.positional })
	if i < 0 || !isWord(args[i].text) {
		return nil // no argument, a URL or a host name: the load says what is wrong with it
	}
	if near := nearestName(args[i].text, slices.Sorted(maps.Keys(names))); near != "" {
		return usageError{fmt.Sprintf("unknown command %q: did you mean %s?", args[i].text, near)}
	}
	return nil
}

// isWord reports whether s could be a command's name: a letter, then
// letters, digits and dashes, no "." or ":" as a URL or host name has.
func isWord(s string) bool {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	return s != "" && strings.IndexByte(letters, s[0]) >= 0 && strings.Trim(s, letters+"0123456789-_") == ""
}

// nearestName returns the candidate closest to name, if it is close
// enough to be a misspelling of it (as nearestFlag judges).
func nearestName(name string, candidates []string) string {
	best, bestDistance := "", min(2, len(name)/3)
	for _, candidate := range candidates {
		if d := editDistance(strings.ToLower(name), candidate); d <= bestDistance && (best == "" || d < bestDistance) {
			best, bestDistance = candidate, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes,
// with two neighbours swapped counted as one edit ("reprot", "hlep"):
// the optimal string alignment distance.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1) // d[i][j]: the distance between a[:i] and b[:j]
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
