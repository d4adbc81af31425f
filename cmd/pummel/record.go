package main

import (
	"strings"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/redact"
	"github.com/pummel-dev/pummel/stats"
)

// runConfig is the load shape as it goes into every output, with secrets
// redacted unless --show-secrets.
func (o *options) runConfig(c engine.Config, args []string) stats.RunConfig {
	rc := stats.RunConfig{
		URL:            c.URL.String(),
		Method:         strings.ToUpper(c.Method),
		BodyBytes:      len(c.Body),
		Connections:    c.Connections,
		Threads:        c.Threads,
		DurationS:      c.Duration.Seconds(),
		Requests:       c.Requests,
		TimeoutS:       c.Timeout.Seconds(),
		KeepAlive:      !c.NoKeepAlive,
		Pipeline:       c.Pipeline,
		Rates:          c.Rates,
		WarmupS:        c.Warmup.Seconds(),
		WarmupRequests: c.WarmupRequests,
		Command:        "pummel " + redact.ShellQuote(args),
	}
	if rc.Method == "" {
		rc.Method = "GET"
		if len(c.Body) > 0 {
			rc.Method = "POST"
		}
	}
	for _, h := range c.Headers {
		rc.Headers = append(rc.Headers, h.Name+": "+h.Value)
	}
	if !o.showSecrets {
		rc.URL = redact.URL(rc.URL)
		for i, h := range rc.Headers {
			rc.Headers[i] = redact.Header(h)
		}
		rc.Command = "pummel " + redact.ShellQuote(redact.Args(args))
	}
	return rc
}
