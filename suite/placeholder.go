package suite

import (
	"fmt"
	"strings"

	"github.com/pummel-dev/pummel/internal/redact"
)

// Placeholders a plan's strings may hold, replaced anew in every run.
const (
	// PortPlaceholder is a free loopback TCP port chosen for the run.
	PortPlaceholder = "{port}"
	// TmpdirPlaceholder is a fresh temporary directory, removed after the run.
	TmpdirPlaceholder = "{tmpdir}"
)

// expander replaces the placeholders of one run and ${VAR} references to
// the environment. It remembers the values of the references it expanded,
// so that they can be scrubbed from anything written.
type expander struct {
	port, tmpdir string
	lookupEnv    func(string) (string, bool)
	secrets      []string
}

// expand returns s with its placeholders and references replaced. A {word}
// that is not a placeholder and a reference to an unset variable are
// errors; other braces (a JSON body's) are kept as they are.
func (x *expander) expand(s string) (string, error) {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		name := s[i+1 : i+end]
		isRef := i > 0 && s[i-1] == '$'
		value, ok, err := x.resolve(name, isRef)
		if err != nil {
			return "", err
		}
		if !ok { // not a placeholder: keep the brace and go on after it
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		if isRef {
			i-- // drop the $
		}
		b.WriteString(s[:i])
		b.WriteString(value)
		s = s[i+len(name)+2+boolInt(isRef):]
	}
}

// resolve returns the value of ${name} (isRef) or {name}; ok is false for
// braces that hold neither.
func (x *expander) resolve(name string, isRef bool) (value string, ok bool, err error) {
	switch {
	case isRef && isEnvName(name):
		v, set := x.lookupEnv(name)
		if !set {
			return "", false, fmt.Errorf("${%s} is not set in the environment", name)
		}
		if v != "" {
			x.secrets = append(x.secrets, v)
		}
		return v, true, nil
	case isRef || !isPlaceholderName(name):
		return "", false, nil
	case "{"+name+"}" == PortPlaceholder:
		return x.port, true, nil
	case "{"+name+"}" == TmpdirPlaceholder:
		return x.tmpdir, true, nil
	}
	return "", false, fmt.Errorf("undefined placeholder {%s} (use %s or %s, or ${VAR} for the environment)", name, PortPlaceholder, TmpdirPlaceholder)
}

// scrub replaces every expanded ${VAR} value in s.
func (x *expander) scrub(s string) string {
	for _, v := range x.secrets {
		s = strings.ReplaceAll(s, v, redact.Redacted)
	}
	return s
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// isPlaceholderName reports whether {name} reads as a placeholder: a
// lower-case word.
func isPlaceholderName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		if (c < 'a' || c > 'z') && c != '_' {
			return false
		}
	}
	return true
}

// isEnvName reports whether ${name} names an environment variable.
func isEnvName(name string) bool {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for _, c := range name {
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}
