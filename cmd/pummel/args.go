package main

import "strings"

// flagSpec tells normalizeArgs which flag names take a value.
type flagSpec struct {
	values map[string]bool   // names (without dashes) of flags that take a value
	bools  map[string]bool   // names of boolean flags
	long   map[string]string // every name and alias → the flag's long name
}

// normalizeArgs rewrites wrk/ab spellings into what urfave/cli parses:
// attached short values are split ("-t16" → "-t 16", "-c1k" → "-c 1k") and
// flags after the URL are moved before it, since urfave/cli v2 stops
// parsing flags at the first positional argument. Known flags are spelled
// by their long name, since urfave/cli v2 refuses "-o a --output b". A leading command name
// stays first; everything after "--" is passed through untouched.
func normalizeArgs(args []string, spec flagSpec, commands map[string]bool) []string {
	var out, positional []string
	if len(args) > 0 && commands[args[0]] {
		out = append(out, args[0])
		args = args[1:]
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			positional = append(positional, args[i:]...)
			i = len(args)
		case len(a) < 2 || a[0] != '-':
			positional = append(positional, a)
		default:
			flag, value, takesNext := splitFlag(a, spec)
			out = append(out, flag...)
			if value && takesNext && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
		}
	}
	return append(out, positional...)
}

// splitFlag returns the tokens for one flag argument, whether the flag takes
// a value, and whether that value is the next argument.
func splitFlag(a string, spec flagSpec) (tokens []string, value, takesNext bool) {
	name := strings.TrimLeft(a, "-")
	if flag, value, ok := strings.Cut(name, "="); ok && (spec.values[flag] || spec.bools[flag]) {
		return []string{spec.spell(flag) + "=" + value}, true, false
	}
	if spec.values[name] {
		return []string{spec.spell(name)}, true, true
	}
	if spec.bools[name] || a[1] == '-' {
		return []string{spec.spell(name)}, false, false
	}
	// A single dash and an unknown name: an attached short value ("-t16").
	if short := name[:1]; spec.values[short] {
		return []string{spec.spell(short), name[1:]}, true, false
	}
	return []string{a}, false, false
}

// spell returns a known flag by its long name, or an unknown one as given
// with two dashes.
func (s flagSpec) spell(name string) string {
	if long, ok := s.long[name]; ok {
		name = long
	}
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}
