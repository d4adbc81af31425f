package main

import (
	"strings"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/redact"
	"github.com/pummel-dev/pummel/stats"
)

// commandLine is what pummel's outputs say about the command line: the
// command as typed with its secrets redacted, and the secret values found
// in it, scrubbed from every other string that leaves the process (results,
// error lines). With --show-secrets nothing is redacted.
type commandLine struct {
	command string // "pummel …", as recorded in results
	show    bool   // --show-secrets
	secrets *redact.Secrets
}

// recordArgs reads the command line the parser read: each flag value
// is redacted by what its flag holds, the URL by the URL rules, and the
// script's arguments after "--" entirely, since pummel cannot know what a
// script does with them (README's auth.lua takes credentials there).
func recordArgs(args []argument) commandLine {
	r := commandLine{secrets: &redact.Secrets{}}
	for _, a := range args {
		if a.flag == "show-secrets" {
			r.show = !a.hasValue || a.value != "false"
		}
	}
	typed := make([]string, len(args))
	for i, a := range args {
		typed[i] = a.text
		if r.show {
			continue
		}
		switch {
		case a.script:
			r.secrets.Add(a.text)
			r.secrets.Add(a.text[strings.LastIndexAny(a.text, ":=")+1:]) // the password of user:password
			typed[i] = redact.Redacted
		case a.positional:
			typed[i] = r.secrets.URL(a.text)
		case a.hasValue:
			typed[i] = strings.TrimSuffix(a.text, a.value) + r.flagValue(a.flag, a.value)
		}
	}
	r.command = strings.TrimSpace("pummel " + redact.ShellQuote(typed))
	return r
}

// flagValue redacts the value of one flag by what the flag holds.
func (r commandLine) flagValue(flag, value string) string {
	switch flag {
	case "header":
		return r.secrets.Header(value)
	case "body":
		return r.secrets.Body(value)
	case "exec":
		return r.secrets.Command(value)
	case "ready-url":
		return r.secrets.URL(value)
	case "export": // KIND=URL
		kind, u, _ := strings.Cut(value, "=")
		return kind + "=" + r.secrets.URL(u)
	}
	if redact.SecretName(flag) {
		r.secrets.Add(value)
		return redact.Redacted
	}
	return value
}

// url returns a URL as it may leave the process: its user name,
// password and secret query values redacted (and remembered).
func (r commandLine) url(s string) string {
	if r.show {
		return s
	}
	return r.secrets.URL(s)
}

// text returns a line of free text (an error message) as it may leave
// the process.
func (r commandLine) text(s string) string {
	if r.show {
		return s
	}
	return r.secrets.Text(s)
}

// recordedConfig is the load shape as it goes into every output, with
// the request the command line describes (see sentConfig).
func (r commandLine) recordedConfig(c engine.Config) stats.Config {
	rc := c.Recorded()
	rc.Command = r.command
	r.redactRequest(&rc)
	return rc
}

// sentConfig is shape with the request a run sent, as the engine recorded
// it in sent (a script may change the command line's), redacted. A sent
// without a record leaves shape as it is (see engine.WithSent).
func (r commandLine) sentConfig(shape, sent stats.Config) stats.Config {
	if sent.RequestSHA256 == "" {
		return shape // redacted already
	}
	shape = engine.WithSent(shape, sent)
	r.redactRequest(&shape)
	return shape
}

// redactRequest redacts the secrets of rc's URL and headers.
func (r commandLine) redactRequest(rc *stats.Config) {
	if r.show {
		return
	}
	rc.URL = r.secrets.URL(rc.URL)
	for i, h := range rc.Headers {
		rc.Headers[i] = r.secrets.Header(h)
	}
}

// scrub removes the secret values from the free text of res (error
// causes, warnings, exit reasons), in every stage, run and step.
func (r commandLine) scrub(res *stats.Result) {
	if !r.show {
		res.Scrub(r.text)
	}
}
