package stats_test

import (
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/internal/redact"
	"github.com/pummel-dev/pummel/stats"
)

func TestScrubReachesEveryFreeText(t *testing.T) {
	const secret = "s3cret"
	leaf := func() stats.Result {
		return stats.Result{
			ErrorCauses: map[string]map[string]int64{"read": {"bad " + secret: 2, "bad REDACTED": 1}},
			Warnings:    []string{"w " + secret},
			Server:      []stats.ServerUsage{{ExitReason: "exit " + secret}},
			StepResult:  &stats.StepResult{Why: "why " + secret},
			Targets:     []stats.Target{{URL: "http://user:pw@h/x?t=" + secret}},
		}
	}
	res := leaf()
	res.Capacity = &stats.Capacity{Why: "cap " + secret, Stopped: "stopped " + secret}
	res.Stages, res.Runs, res.Steps = []stats.Result{leaf()}, []stats.Result{leaf()}, []stats.Result{leaf()}
	res.Scrub(func(s string) string { return strings.ReplaceAll(s, secret, redact.Redacted) })
	check := func(path string, r stats.Result) {
		if got := r.ErrorCauses["read"]["bad REDACTED"]; got != 3 {
			t.Errorf("%s: causes %v, want the two merged into 3", path, r.ErrorCauses)
		}
		for _, s := range []string{r.Warnings[0], r.Server[0].ExitReason, r.Why, r.Targets[0].URL} {
			if strings.Contains(s, secret) || strings.Contains(s, "pw") {
				t.Errorf("%s: %q keeps the secret", path, s)
			}
		}
	}
	check("result", res)
	for _, part := range [][]stats.Result{res.Stages, res.Runs, res.Steps} {
		check("part", part[0])
	}
	if strings.Contains(res.Capacity.Why+res.Capacity.Stopped, secret) {
		t.Errorf("capacity.why %q keeps the secret", res.Capacity.Why)
	}
}
