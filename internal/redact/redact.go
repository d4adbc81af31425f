package redact

import (
	"encoding/base64"
	"net/url"
	"strings"
)

// Header returns "Name: value" with the value replaced when the name is
// secret.
func Header(h string) string { return (*Secrets)(nil).Header(h) }

// URL returns the URL s with its userinfo (user name and password, each
// a credential) and the values of secret query parameters replaced. It works on the text, so everything else stays as
// written: the order and escaping of the query, and templates such as
// http://127.0.0.1:{port}/ that url.Parse refuses.
func URL(s string) string { return (*Secrets)(nil).URL(s) }

// URLTemplate is URL for a URL template of a plan: a query value that
// holds a ${VAR} reference names its secret rather than holding it, so it
// stays as written.
func URLTemplate(s string) string { return (*Secrets)(nil).url(s, true) }

// Header is the package's Header, also remembering the secret value.
func (s *Secrets) Header(h string) string {
	name, value, ok := strings.Cut(h, ":")
	if !ok || strings.TrimSpace(value) == "" || !SecretName(strings.TrimSpace(name)) {
		return h
	}
	s.Add(strings.TrimSpace(value))
	return name + ": " + Redacted
}

// URL is the package's URL, also remembering the secret values.
func (s *Secrets) URL(u string) string { return s.url(u, false) }

// url redacts u; with refs, a query value holding a ${VAR} reference is
// kept.
func (s *Secrets) url(u string, refs bool) string {
	if scheme, rest, ok := strings.Cut(u, "://"); ok {
		authority := rest
		if i := strings.IndexAny(rest, "/?#"); i >= 0 {
			authority = rest[:i]
		}
		if at := strings.LastIndexByte(authority, '@'); at > 0 {
			s.userinfo(authority[:at])
			u = scheme + "://" + Redacted + rest[at:]
		}
	}
	base, query, ok := strings.Cut(u, "?")
	if !ok {
		return u
	}
	query, fragment, hasFragment := strings.Cut(query, "#")
	u = base + "?" + s.pairs(query, refs)
	if hasFragment {
		u += "#" + fragment
	}
	return u
}

// userinfo remembers the user name and password of a URL's userinfo: a
// user name alone is a credential too (http://TOKEN@host/ sends TOKEN as
// Basic credentials). It remembers the Basic credentials the URL sends
// too (base64 of user:password, unescaped), which a server may echo.
func (s *Secrets) userinfo(info string) {
	s.addEscaped(info)
	user, pass, ok := strings.Cut(info, ":")
	if ok {
		s.addEscaped(user)
		s.addEscaped(pass)
	}
	if u, err := url.PathUnescape(user); err == nil {
		user = u
	}
	if p, err := url.PathUnescape(pass); err == nil {
		pass = p
	}
	s.remember(base64.StdEncoding.EncodeToString([]byte(user + ":" + pass)))
}

// pairs redacts the secret values of name=value pairs joined by "&", in
// their order, with names compared unescaped; with refs, a value holding
// a ${VAR} reference is kept.
func (s *Secrets) pairs(q string, refs bool) string {
	parts := strings.Split(q, "&")
	for i, p := range parts {
		name, value, ok := strings.Cut(p, "=")
		if plain, err := url.QueryUnescape(name); err == nil {
			name = plain
		}
		if ok && value != "" && SecretName(name) && !(refs && strings.Contains(value, "${")) {
			s.addEscaped(value)
			parts[i] = p[:len(p)-len(value)] + Redacted
		}
	}
	return strings.Join(parts, "&")
}

// Command returns a command line (such as --exec's) with secrets replaced,
// remembering the secret values: the values of flags named like secrets
// (--api-key=v, --api-key v), of NAME=value assignments and name=value&…
// pairs with secret names, of "Name: value" headers, and URL userinfo and
// secret query values.
func (s *Secrets) Command(c string) string {
	var b strings.Builder
	secretNext := false // the previous word was a secret flag awaiting its value
	last := 0
	for _, w := range words(c, true) {
		word := c[w.start:w.end]
		b.WriteString(c[last:w.start])
		last = w.end
		if secretNext && !strings.HasPrefix(word, "-") {
			s.Add(unquote(word))
			b.WriteString(Redacted)
			secretNext = false
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(word, "-"), "=")
		secretNext = strings.HasPrefix(word, "-") && !hasValue && SecretName(name)
		b.WriteString(s.word(word))
	}
	b.WriteString(c[last:])
	return b.String()
}

// word redacts one word of a command line or of free text: a URL, a
// --flag=value, NAME=value or name=value&… pairs, or a quoted
// "Name: value" header (quoted words occur in command lines only).
func (s *Secrets) word(w string) string {
	plain := unquote(w)
	switch {
	case strings.Contains(w, "://"):
		return s.URL(w)
	case strings.HasPrefix(w, "-"):
		if name, value, ok := strings.Cut(strings.TrimLeft(plain, "-"), "="); ok && value != "" && SecretName(name) {
			s.Add(value)
			return plain[:len(plain)-len(value)] + Redacted
		}
	case strings.Contains(w, "="):
		if r := s.pairs(plain, false); r != plain {
			return r
		}
	case plain != w && strings.Contains(plain, ": "):
		// A quoted header ('X-Token: t'); unquoted, "a.lua:3:" is no header.
		if r := s.Header(plain); r != plain {
			return ShellQuote([]string{r})
		}
	}
	return w
}

// span is where one word lies in a string.
type span struct{ start, end int }

// words splits s at blanks; with shell set, not at blanks within quotes,
// as a shell would (the quotes stay in the words). Quotes in prose are not
// shell quotes: "don't" opens none.
func words(s string, shell bool) []span {
	var out []span
	start, quote := -1, byte(0)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case shell && (ch == '\'' || ch == '"'):
			quote = ch
		case ch == ' ' || ch == '\t' || ch == '\n':
			if start >= 0 {
				out = append(out, span{start, i})
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, span{start, len(s)})
	}
	return out
}

// unquote drops a shell word's quotes.
func unquote(w string) string {
	return strings.NewReplacer(`'`, "", `"`, "").Replace(w)
}

// ShellQuote joins args into a command line a shell would read back.
func ShellQuote(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`!*?&;|<>()[]{}#~") {
			quoted[i] = a
		} else {
			quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(quoted, " ")
}
