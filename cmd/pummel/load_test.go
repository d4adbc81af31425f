package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/internal/fixture"
)

// TestNoAnswerFailsTheRun pins DESIGN §2 and §3: a run in which not one
// request was answered (here every request timed out) exits 1 with one
// line saying so, and shows its latency as absent, never as zeros.
func TestNoAnswerFailsTheRun(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{Stall: true})
	load := []string{"-c", "2", "-n", "4", "--timeout", "200ms", "-q"}
	for _, tt := range []struct {
		format string
		check  func(t *testing.T, stdout string)
	}{
		{"text", func(t *testing.T, stdout string) {
			if !strings.Contains(stdout, "    Latency          -") || strings.Contains(stdout, "0.00us") {
				t.Errorf("latency not shown as absent:\n%s", stdout)
			}
		}},
		{"json", func(t *testing.T, stdout string) {
			var doc map[string]any
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatalf("stdout is not one JSON document: %v\n%s", err, stdout)
			}
			if lat, ok := doc["latency_us"]; !ok || lat != nil {
				t.Errorf("latency_us = %v, want null", lat)
			}
		}},
	} {
		t.Run(tt.format, func(t *testing.T) {
			code, stdout, stderr := pummel(t.Context(), append(load, "--format", tt.format, srv.URL())...)
			if code != exitFailed || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "not one request was answered") {
				t.Errorf("exit %d, stderr %q: want 1 and one line saying no request was answered", code, stderr)
			}
			tt.check(t, stdout)
		})
	}
}
