package main

import "strings"

// flagSpec tells normalizeArgs which flag names take a value.
type flagSpec struct {
	values map[string]bool   // names (without dashes) of flags that take a value
	bools  map[string]bool   // names of boolean flags
	long   map[string]string // every name and alias → the flag's long name
}

// argument is one command-line argument as pummel reads it: what it is
// given to urfave/cli as, and which flag's value it holds. Both the parser
// and the recorded command read arguments this way, so that every
// spelling the parser accepts is also redacted.
type argument struct {
	text   string   // as typed
	tokens []string // what urfave/cli is given for it
	// flag is the long name of the flag the argument names or holds the
	// value of; value is that value (the end of text), if hasValue.
	flag       string
	value      string
	hasValue   bool
	positional bool // the URL, "--" and what follows it
	script     bool // after "--": an argument for the script's init(args)
}

// normalizeArgs returns the scanned arguments in what urfave/cli parses:
// wrk/ab spellings rewritten, attached short values split ("-t16" →
// "-t 16", "-c1k" → "-c 1k") and flags after the URL moved before it,
// since urfave/cli v2 stops parsing flags at the first positional
// argument. Known flags are spelled by their long name, since urfave/cli
// v2 refuses "-o a --output b". A leading command name stays first;
// everything after "--" is passed through untouched.
func normalizeArgs(args []argument) []string {
	var out, positional []string
	for _, a := range args {
		if a.positional {
			positional = append(positional, a.text)
		} else {
			out = append(out, a.tokens...)
		}
	}
	return append(out, positional...)
}

// scanArgs reads the command line argument by argument.
func scanArgs(args []string, spec flagSpec, commands map[string]bool) []argument {
	var out []argument
	if len(args) > 0 && commands[args[0]] {
		out = append(out, argument{text: args[0], tokens: args[:1]})
		args = args[1:]
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			out = append(out, argument{text: a, positional: true})
			for _, s := range args[i+1:] {
				out = append(out, argument{text: s, positional: true, script: true})
			}
			return out
		case len(a) < 2 || a[0] != '-':
			out = append(out, argument{text: a, positional: true})
		default:
			arg, takesNext := splitFlag(a, spec)
			out = append(out, arg)
			if takesNext && i+1 < len(args) {
				i++
				next := args[i]
				out = append(out, argument{text: next, tokens: []string{next}, flag: arg.flag, value: next, hasValue: true})
			}
		}
	}
	return out
}

// splitFlag reads one flag argument, and whether its value is the next
// argument.
func splitFlag(a string, spec flagSpec) (arg argument, takesNext bool) {
	name := strings.TrimLeft(a, "-")
	arg.text = a
	if flag, value, ok := strings.Cut(name, "="); ok && (spec.values[flag] || spec.bools[flag]) {
		arg.flag, arg.value, arg.hasValue = spec.longName(flag), value, true
		arg.tokens = []string{spec.spell(flag) + "=" + value}
		return arg, false
	}
	if spec.values[name] || spec.bools[name] || a[1] == '-' {
		arg.flag, arg.tokens = spec.longName(name), []string{spec.spell(name)}
		return arg, spec.values[name]
	}
	// A single dash and an unknown name: an attached short value ("-t16").
	if short := name[:1]; spec.values[short] {
		arg.flag, arg.value, arg.hasValue = spec.longName(short), name[1:], true
		arg.tokens = []string{spec.spell(short), name[1:]}
		return arg, false
	}
	arg.tokens = []string{a}
	return arg, false
}

// longName returns a known flag's long name, or name itself.
func (s flagSpec) longName(name string) string {
	if long, ok := s.long[name]; ok {
		return long
	}
	return name
}

// spell returns a known flag by its long name, or an unknown one as given
// with two dashes.
func (s flagSpec) spell(name string) string {
	name = s.longName(name)
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}
