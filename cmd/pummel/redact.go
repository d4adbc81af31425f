package main

import (
	"net/url"
	"strings"
)

// redacted replaces secret values in every output.
const redacted = "REDACTED"

// secretHeader reports whether a header's value is a secret: credentials,
// cookies, and anything named like a key, token or secret.
func secretHeader(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "authorization", "proxy-authorization", "cookie", "set-cookie":
		return true
	}
	return strings.Contains(n, "key") || strings.Contains(n, "token") || strings.Contains(n, "secret")
}

// redactHeader returns "Name: value" with a secret value replaced.
func redactHeader(h string) string {
	name, _, ok := strings.Cut(h, ":")
	if ok && secretHeader(strings.TrimSpace(name)) {
		return name + ": " + redacted
	}
	return h
}

// redactURL replaces a URL's password and the values of query parameters
// named like secrets.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), redacted)
	}
	if u.RawQuery != "" {
		q := u.Query()
		changed := false
		for name := range q {
			if secretHeader(name) || strings.Contains(strings.ToLower(name), "password") {
				q.Set(name, redacted)
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	return u.String()
}

// redactArgs returns the command line with secrets replaced, as the user
// typed it otherwise.
func redactArgs(args []string) []string {
	out := make([]string, len(args))
	headerNext := false
	for i, a := range args {
		switch {
		case headerNext:
			out[i] = redactHeader(a)
		case strings.HasPrefix(a, "--header="):
			out[i] = "--header=" + redactHeader(a[len("--header="):])
		case strings.HasPrefix(a, "-H") && len(a) > 2 && a[2] != '-':
			out[i] = "-H" + redactHeader(strings.TrimPrefix(a[2:], "="))
		case strings.Contains(a, "://"):
			out[i] = redactURL(a)
		default:
			out[i] = a
		}
		headerNext = a == "-H" || a == "--header" || a == "-header"
	}
	return out
}

// shellQuote joins args into a command line a shell would read back.
func shellQuote(args []string) string {
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
