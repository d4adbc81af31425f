package stats

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestPercentilesWithinExtremes pins that no percentile (nor the mean)
// lies outside [min, max]: HdrHistogram returns the edge of a value's
// bucket, 164.095us for a recorded 164.063us, while min and max are the
// exact extremes recorded.
func TestPercentilesWithinExtremes(t *testing.T) {
	one := Merge([]*Recorder{recorded(164063 * time.Nanosecond)}, time.Second, nil)
	few := Merge([]*Recorder{recorded(164063*time.Nanosecond, 164001*time.Nanosecond, 3*time.Millisecond+7)}, time.Second, nil)
	other := Merge([]*Recorder{recorded(2*time.Millisecond+3, 164063*time.Nanosecond)}, time.Second, nil)
	combined, err := Combine([]Result{one, other}, Sequential)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		r    Result
	}{
		{"one response", one},
		{"a few responses", few},
		{"combined results", combined},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := tt.r.Latency
			for _, p := range []struct {
				name string
				us   float64
			}{{"mean", l.Mean}, {"p50", l.P50}, {"p75", l.P75}, {"p90", l.P90}, {"p95", l.P95},
				{"p99", l.P99}, {"p99.9", l.P999}, {"p99.99", l.P9999}} {
				if p.us < l.Min || p.us > l.Max {
					t.Errorf("%s %.3fus outside [min %.3fus, max %.3fus]", p.name, p.us, l.Min, l.Max)
				}
			}
		})
	}
}

// TestNoResponseHasNoLatency pins that a run in which every request failed
// shows its latency as absent in every output, never as zeros.
func TestNoResponseHasNoLatency(t *testing.T) {
	rec := NewRecorder()
	rec.AddErrors(Timeout, "no response within 2s", 8)
	r := Merge([]*Recorder{rec}, time.Second, nil)
	r.Config = RunConfig{URL: "http://127.0.0.1:9/", Method: "GET", Connections: 2, Threads: 1, DurationS: 1}
	var text, md, js strings.Builder
	if err := errors.Join(WriteText(&text, r, TextOptions{Latency: true}), WriteMarkdown(&md, r), WriteJSON(&js, r)); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, out string
		want      []string
	}{
		{"text", text.String(), []string{"    Latency          -         -        -        -\n", "     50%         -\n"}},
		{"markdown", md.String(), []string{"| Latency p99 | - |", "| 99.99% | - |"}},
		{"json", js.String(), []string{`"latency_us": null,`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, want := range tt.want {
				if !strings.Contains(tt.out, want) {
					t.Errorf("output lacks %q:\n%s", want, tt.out)
				}
			}
			if strings.Contains(tt.out, "0.00us") || strings.Contains(tt.out, `"p50": 0`) {
				t.Errorf("output shows a latency of zero:\n%s", tt.out)
			}
		})
	}
}
