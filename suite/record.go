package suite

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"strings"

	"github.com/pummel-dev/pummel/internal/redact"
)

// recordPlan returns the plan as it is recorded in the report: as
// written, placeholders and ${VAR} references kept, with the values of
// headers and variables named like secrets, URL passwords and secret
// query parameters redacted, unless they take the secret from the
// environment (hold a ${VAR} reference).
func recordPlan(p Plan) Plan {
	p.Server.Env = redactEnv(p.Server.Env)
	p.Server.Ready.URL = redactURL(p.Server.Ready.URL)
	p.Modes = append([]Mode(nil), p.Modes...)
	for i := range p.Modes {
		p.Modes[i].Env = redactEnv(p.Modes[i].Env)
	}
	p.Operations = append([]Operation(nil), p.Operations...)
	for i := range p.Operations {
		op := &p.Operations[i]
		op.URL = redactURL(op.URL)
		op.Headers = redactEnv(op.Headers)
	}
	return p
}

// redactEnv copies a name → value mapping, redacting the values of
// names that look like secrets (keys, tokens, credentials, cookies).
func redactEnv(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := maps.Clone(m)
	for name, value := range out {
		if redact.SecretName(name) && !strings.Contains(value, "${") {
			out[name] = redact.Redacted
		}
	}
	return out
}

// redactURL redacts a URL template's password and secret query values.
// It works on the text, since a template such as
// http://127.0.0.1:{port}/ is not a URL url.Parse accepts.
func redactURL(s string) string {
	if scheme, rest, ok := strings.Cut(s, "://"); ok {
		authority := rest
		if i := strings.IndexAny(rest, "/?#"); i >= 0 {
			authority = rest[:i]
		}
		if at := strings.LastIndexByte(authority, '@'); at >= 0 {
			if user, _, hasPass := strings.Cut(authority[:at], ":"); hasPass {
				s = scheme + "://" + user + ":" + redact.Redacted + rest[at:]
			}
		}
	}
	base, query, ok := strings.Cut(s, "?")
	if !ok {
		return s
	}
	query, fragment, hasFragment := strings.Cut(query, "#")
	q, err := url.ParseQuery(query)
	if err != nil {
		return base + "?" + redact.Redacted
	}
	changed := false
	for name := range q {
		if redact.SecretName(name) && !strings.Contains(q.Get(name), "${") {
			q.Set(name, redact.Redacted)
			changed = true
		}
	}
	if changed {
		query = q.Encode()
	}
	if hasFragment {
		query += "#" + fragment
	}
	return base + "?" + query
}

// jsonText turns the YAML value of a JSON check into JSON text.
func jsonText(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("the expected value cannot be written as JSON: %w", err)
	}
	return string(b), nil
}
