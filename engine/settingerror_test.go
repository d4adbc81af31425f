package engine

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestSettingErrorSpellsSettingsAsTheCallerDoes: Validate's refusals name
// other settings as {setting}, which a caller spells as its flags or
// fields; what the user typed is never spelled.
func TestSettingErrorSpellsSettingsAsTheCallerDoes(t *testing.T) {
	u, _ := url.Parse("http://127.0.0.1:1/")
	base := Config{URL: u, Connections: 2, Threads: 1, Duration: time.Second, Timeout: time.Second}
	flag := func(s string) string { return "--" + s }
	tests := []struct {
		name                  string
		change                func(c *Config)
		setting, needs        string
		errorText, callerText string
	}{
		{"streams need HTTP/2", func(c *Config) { c.Streams = 4 }, "streams", "http2",
			"streams: streams are HTTP/2's and HTTP/3's (needs http2)", "streams are HTTP/2's and HTTP/3's"},
		{"HTTP/2 does not pipeline", func(c *Config) { c.Protocol, c.Pipeline = HTTP2, 4 }, "pipeline", "",
			"pipeline: HTTP/2 does not pipeline; it keeps several requests in flight with streams",
			"HTTP/2 does not pipeline; it keeps several requests in flight with --streams"},
		{"HTTP/2 keeps connections alive", func(c *Config) { c.Protocol, c.NoKeepAlive = HTTP2, true }, "http2", "",
			"http2: HTTP/2 connections are kept alive; drop no-keepalive", "HTTP/2 connections are kept alive; drop --no-keepalive"},
		{"a protocol pummel does not speak", func(c *Config) { c.Protocol = 9 }, "protocol", "",
			"protocol: Protocol(9) is not one pummel speaks", "Protocol(9) is not one pummel speaks"},
		{"an open loop without a count", func(c *Config) { c.Rates, c.Requests = []float64{10}, 5 }, "rate", "",
			"rate: requests does not apply to an open-loop run; it sends rate × duration requests per stage",
			"--requests does not apply to an open-loop run; it sends rate × duration requests per stage"},
		{"braces typed by the user stay", func(c *Config) { c.Engine = "{duration}" }, "engine", "",
			`engine: "{duration}", want auto, loop or goroutine`, `"{duration}", want auto, loop or goroutine`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			tt.change(&c)
			var bad *SettingError
			if err := c.Validate(); !errors.As(err, &bad) {
				t.Fatalf("Validate() = %v, want a *SettingError", err)
			}
			if bad.Setting != tt.setting || bad.Needs != tt.needs || bad.Error() != tt.errorText {
				t.Errorf("setting %q, needs %q, error %q; want %q, %q, %q", bad.Setting, bad.Needs, bad.Error(), tt.setting, tt.needs, tt.errorText)
			}
			if got := bad.Text(flag); got != tt.callerText {
				t.Errorf("Text(flag) = %q, want %q", got, tt.callerText)
			}
		})
	}
}

func TestSpellSettings(t *testing.T) {
	upper := strings.ToUpper
	tests := []struct{ format, want string }{
		{"", ""},
		{"no settings", "no settings"},
		{"raise {connections} to %d", "raise CONNECTIONS to %d"},
		{"{a} and {b}", "A and B"},
		{"an open { without its close", "an open { without its close"},
	}
	for _, tt := range tests {
		if got := spellSettings(tt.format, upper); got != tt.want {
			t.Errorf("spellSettings(%q) = %q, want %q", tt.format, got, tt.want)
		}
	}
}
