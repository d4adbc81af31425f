package suite

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/stats"
)

// TestUnansweredOperationHasNoLatency pins that an operation no request of
// which was answered shows its latency as "-" in the suite's tables and as
// null in its JSON, never as zeros.
func TestUnansweredOperationHasNoLatency(t *testing.T) {
	timedOut := &stats.Result{DurationS: 1, Status: map[string]int64{}, Errors: stats.Errors{Timeout: 4}}
	rep := &Result{Name: "unanswered", Modes: []string{"only"}, RunsPerMode: 1,
		Operations: []OperationInfo{{Name: "get", Method: "GET", URL: "http://127.0.0.1:9/"}},
		Runs:       []RunResult{{Mode: "only", Run: 1, Operations: []OperationResult{{Name: "get", Result: timedOut}}}}}
	if err := rep.Summarize(); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		write func(*bytes.Buffer, *Result) error
		want  string
	}{
		{"text", func(b *bytes.Buffer, r *Result) error { return WriteText(b, r) }, "0    -    -    -    -   0.00"},
		{"markdown", func(b *bytes.Buffer, r *Result) error { return WriteMarkdown(b, r) }, "| only | 0 | - | - | - | - |"},
		{"json", func(b *bytes.Buffer, r *Result) error { return WriteJSON(b, r) }, `"latency_us": null`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tt.write(&b, rep); err != nil {
				t.Fatal(err)
			}
			if out := b.String(); !strings.Contains(out, tt.want) {
				t.Errorf("want %q in:\n%s", tt.want, out)
			}
		})
	}
}
