// Package redact replaces secrets (credentials, cookies, keys, tokens, URL
// passwords) in what pummel prints and writes, unless the user asks to see them.
package redact

import (
	"net/url"
	"strings"
)

// Redacted replaces secret values in every output.
const Redacted = "REDACTED"

// SecretHeader reports whether a header's value is a secret: credentials,
// cookies, and anything named like a key, token or secret.
func SecretHeader(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "authorization", "proxy-authorization", "cookie", "set-cookie":
		return true
	}
	return strings.Contains(n, "key") || strings.Contains(n, "token") || strings.Contains(n, "secret")
}

// SecretName reports whether a header, variable or query parameter name
// looks like it holds a secret: a secret header's name, or one that
// mentions a password.
func SecretName(name string) bool {
	return SecretHeader(name) || strings.Contains(strings.ToLower(name), "password")
}

// Header returns "Name: value" with a secret value replaced.
func Header(h string) string {
	name, _, ok := strings.Cut(h, ":")
	if ok && SecretHeader(strings.TrimSpace(name)) {
		return name + ": " + Redacted
	}
	return h
}

// URL replaces a URL's password and the values of query parameters
// named like secrets.
func URL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), Redacted)
	}
	if u.RawQuery != "" {
		q := u.Query()
		changed := false
		for name := range q {
			if SecretName(name) {
				q.Set(name, Redacted)
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	return u.String()
}

// Args returns the command line with secrets replaced, as the user
// typed it otherwise.
func Args(args []string) []string {
	out := make([]string, len(args))
	headerNext := false
	for i, a := range args {
		switch {
		case headerNext:
			out[i] = Header(a)
		case strings.HasPrefix(a, "--header="):
			out[i] = "--header=" + Header(a[len("--header="):])
		case strings.HasPrefix(a, "-H") && len(a) > 2 && a[2] != '-':
			out[i] = "-H" + Header(strings.TrimPrefix(a[2:], "="))
		case strings.Contains(a, "://"):
			out[i] = URL(a)
		default:
			out[i] = a
		}
		headerNext = a == "-H" || a == "--header" || a == "-header"
	}
	return out
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
