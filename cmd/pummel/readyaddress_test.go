package main

import (
	"testing"

	"github.com/pummel-dev/pummel/engine"
)

// TestReadyAddressFollowsTheLoadsRules: the readiness probes go where the
// load's parsed --connect-to and --resolve rules send the ready URL.
func TestReadyAddressFollowsTheLoadsRules(t *testing.T) {
	rules := []engine.ConnectTo{
		{Host: "example.test", Port: "80", ToHost: "127.0.0.1", ToPort: "8081"},
		{Host: "api.test", Port: "443", ToHost: "::1", Resolve: true},
	}
	for _, tt := range []struct{ url, want string }{
		{"http://example.test/health", "127.0.0.1:8081"},
		{"https://api.test/ready", "[::1]:443"},
		{"http://other.test/", ""},
		{"http://example.test:9000/", ""},
		{"http://[bad", ""},
	} {
		if got := readyAddress(tt.url, rules); got != tt.want {
			t.Errorf("readyAddress(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
	if got := readyAddress("http://example.test/", nil); got != "" {
		t.Errorf("without rules: %q, want the URL's own address", got)
	}
}
