package main

import (
	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/redact"
	"github.com/pummel-dev/pummel/stats"
)

// runConfig is the load shape as it goes into every output, with secrets
// redacted unless --show-secrets.
func (o *options) runConfig(c engine.Config, args []string) stats.RunConfig {
	rc := c.RunConfig()
	rc.Command = "pummel " + redact.ShellQuote(args)
	if !o.showSecrets {
		rc.URL = redact.URL(rc.URL)
		for i, h := range rc.Headers {
			rc.Headers[i] = redact.Header(h)
		}
		rc.Command = "pummel " + redact.ShellQuote(redact.Args(args))
	}
	return rc
}
