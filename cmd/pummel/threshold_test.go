package main

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

func TestThresholds(t *testing.T) {
	url := targetURL(t)
	tests := []struct {
		name     string
		args     []string
		code     int
		failures []string // stderr lines, in order
	}{
		{"all pass", []string{"--threshold", "p99<1h", "--threshold", "errors==0", "--threshold", "status_5xx<0.1%"}, exitOK, nil},
		{"one fails", []string{"--threshold", "p99<1h", "--threshold", "rps>=1G"}, exitCondition, []string{"pummel: threshold rps>=1G failed: "}},
		{"two fail", []string{"--threshold", "max<1ns", "--threshold", "status_2xx==0"}, exitCondition,
			[]string{"pummel: threshold max<1ns failed: ", "pummel: threshold status_2xx==0 failed: 200"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"-c", "2", "-n", "200", "--format", "json", url}, tt.args...)
			code, stdout, stderr := pummel(t.Context(), args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, stderr)
			}
			var lines []string // after the header, on stderr with --format json
			for line := range strings.Lines(stderr) {
				if strings.HasPrefix(line, "pummel: ") {
					lines = append(lines, line)
				}
			}
			if len(lines) != len(tt.failures) {
				t.Fatalf("stderr %q: want %d failure lines", stderr, len(tt.failures))
			}
			for i, want := range tt.failures {
				if !strings.HasPrefix(lines[i], want) {
					t.Errorf("stderr line %q, want it to start with %q", lines[i], want)
				}
			}
			var res stats.Result
			if err := json.Unmarshal([]byte(stdout), &res); err != nil {
				t.Fatal(err)
			}
			if len(res.Thresholds) != len(tt.args)/2 || len(stats.FailedThresholds(res.Thresholds)) != len(tt.failures) {
				t.Errorf("JSON thresholds %+v", res.Thresholds)
			}
		})
	}
	_, text, _ := pummel(t.Context(), "-c", "2", "-n", "50", url, "--threshold", "p50<1h")
	if !strings.Contains(text, "\nThreshold p50<1h: ok (") {
		t.Errorf("text result lacks the threshold:\n%s", text)
	}
}

// TestThresholdWithNothingAnswered: a run that could not be carried out
// exits 1, not 3, and still names the failed threshold.
func TestThresholdWithNothingAnswered(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{ResetMidResponse: true})
	code, _, stderr := pummel(t.Context(), "-c", "1", "-n", "5", "--threshold", "p99<20ms", srv.URL())
	if code != exitFailed || !strings.Contains(stderr, "threshold p99<20ms failed: -") {
		t.Errorf("exit %d, stderr %q: want 1 and the threshold failed with -", code, stderr)
	}
}

func TestRunExit(t *testing.T) {
	failed := []stats.Threshold{{Expr: "p99<20ms", Value: "23.4ms"}}
	passed := []stats.Threshold{{Expr: "p99<20ms", Value: "2.1ms", OK: true}}
	tests := []struct {
		name     string
		res      stats.Result
		writeErr error
		code     int
		msg      string
	}{
		{"done", stats.Result{Requests: 5, Thresholds: passed}, nil, exitOK, ""},
		{"threshold failed", stats.Result{Requests: 5, Thresholds: failed}, nil, exitCondition, "threshold p99<20ms failed: 23.4ms"},
		{"nothing answered", stats.Result{}, nil, exitFailed, "not one request was answered (errors: none)"},
		{"nothing answered, threshold failed", stats.Result{Thresholds: failed}, nil, exitFailed,
			"threshold p99<20ms failed: 23.4ms\nnot one request was answered (errors: none)"},
		{"output not written", stats.Result{Requests: 5, Thresholds: failed}, errors.New("-o r.json: disk full"), exitFailed,
			"threshold p99<20ms failed: 23.4ms\n-o r.json: disk full"},
		{"interrupted", stats.Result{Requests: 5, Thresholds: failed, Interrupted: true}, nil, exitInterrupted, "threshold p99<20ms failed: 23.4ms"},
		{"interrupted early", stats.Result{Interrupted: true}, nil, exitInterrupted, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := resultExit(tt.res, tt.writeErr)
			var exit exitError
			switch {
			case tt.code == exitOK && err != nil:
				t.Errorf("resultExit = %v, want nil", err)
			case tt.code != exitOK && (!errors.As(err, &exit) || exit.code != tt.code || exit.msg != tt.msg):
				t.Errorf("resultExit = %#v, want code %d, %q", err, tt.code, tt.msg)
			}
		})
	}
}
