package suite

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/pummel-dev/pummel/internal/redact"
)

// recordPlan returns the plan as it is recorded in the result: as
// written, placeholders and ${VAR} references kept, with the values of
// headers and variables named like secrets, URL passwords and secret
// query parameters redacted, unless they take the secret from the
// environment (hold a ${VAR} reference); an inline body is redacted
// whole (redact.Body), since any field of it may be a secret.
func recordPlan(p Plan) Plan {
	p.Server.Env = redactEnv(p.Server.Env)
	p.Server.Ready.URL = redact.URLTemplate(p.Server.Ready.URL)
	p.Modes = append([]Mode(nil), p.Modes...)
	for i := range p.Modes {
		p.Modes[i].Env = redactEnv(p.Modes[i].Env)
	}
	p.Operations = append([]Operation(nil), p.Operations...)
	for i := range p.Operations {
		op := &p.Operations[i]
		op.URL = redact.URLTemplate(op.URL)
		op.Headers = redactEnv(op.Headers)
		if op.Body != nil {
			body := redact.Body(*op.Body)
			op.Body = &body
		}
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

// jsonText turns the YAML value of a JSON check into JSON text.
func jsonText(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("the expected value cannot be written as JSON: %w", err)
	}
	return string(b), nil
}
