package redact

import (
	"net/url"
	"slices"
	"strings"
)

// minKnownLen is the shortest secret value Text looks for in free text:
// replacing every "on" or "42" in a message would garble it, and a value
// that short guards nothing anyway. Shorter values are still redacted
// where their name gives them away.
const minKnownLen = 4

// Secrets remembers the secret values found while redacting a run's
// inputs (headers, URLs, command lines), so that Text can scrub them from
// free text that quotes them: error messages, error causes, a script's
// error. A nil *Secrets redacts by name alone and remembers nothing. It is
// not safe for concurrent use while values are being added.
type Secrets struct {
	values []string // longest first, so that a value is replaced before any part of it
}

// Add remembers v as a secret value; for "Scheme credentials" (such as
// "Bearer abc…"), the credentials alone too, since a message may quote
// just them.
func (s *Secrets) Add(v string) {
	if s == nil {
		return
	}
	v = strings.TrimSpace(v)
	if i := strings.LastIndexAny(v, " \t"); i >= 0 {
		s.Add(v[i+1:])
	}
	s.remember(v)
}

// remember adds v, as it is, to the values Text replaces, unless it is
// too short to look for or known already.
func (s *Secrets) remember(v string) {
	if s == nil || len(v) < minKnownLen || slices.Contains(s.values, v) {
		return
	}
	s.values = append(s.values, v)
	slices.SortStableFunc(s.values, func(a, b string) int { return len(b) - len(a) })
}

// addEscaped remembers a value taken from a URL, as written and unescaped.
func (s *Secrets) addEscaped(v string) {
	s.Add(v)
	if plain, err := url.QueryUnescape(v); err == nil {
		s.Add(plain)
	}
}

// Text returns free text (an error message, a cause) with every
// remembered secret value replaced, and with URLs, --flag=value and
// name=value words redacted by name.
func (s *Secrets) Text(t string) string {
	if s != nil {
		for _, v := range s.values {
			t = strings.ReplaceAll(t, v, Redacted)
		}
	}
	var b strings.Builder
	last := 0
	for _, w := range words(t, false) {
		b.WriteString(t[last:w.start])
		// Prose punctuation after a word ("…?token=x):") is no part of
		// it: redacting the word's last value must not take it along.
		word := t[w.start:w.end]
		core := strings.TrimRight(word, ".,:;)]}'\"")
		b.WriteString(s.word(core))
		b.WriteString(word[len(core):])
		last = w.end
	}
	b.WriteString(t[last:])
	return b.String()
}
