package threshold

import (
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/render"
)

// TestThresholdValueAgreesWithText: a threshold prints its figure as the
// text report prints the same figure, whatever unit its bound was written
// in. Issue 27: one run printed "peak 22.65MB" (MiB, mislabelled) and then
// "Threshold server_rss_peak<18.5MB: FAILED (23.7MB)" (decimal) for the
// same 23,748,608 bytes.
func TestThresholdValueAgreesWithText(t *testing.T) {
	r := stats.Result{
		Requests: 1000, DurationS: 1, RequestsPerS: 1000,
		Status:  map[string]int64{"200": 1000},
		Latency: &stats.Latency{Mean: 900, Max: 31_000, P50: 850, P75: 1000, P90: 1200, P99: 23_412},
		Server:  []stats.ServerUsage{{PID: 7, RSSBytes: stats.RSS{Idle: 10 << 20, Peak: 23_748_608, After: 20 << 20}}},
	}
	for _, tt := range []struct {
		expr string
		line string // the text line that prints the same figure, before the value
	}{
		{"server_rss_peak<18.5MB", "Server pid 7: RSS idle 10.00MiB, peak "},
		{"server_rss_peak<18.5MiB", "Server pid 7: RSS idle 10.00MiB, peak "},
		{"server_rss_peak<18500000", "Server pid 7: RSS idle 10.00MiB, peak "},
		{"p99<20ms", "     99%   "},
		{"p99<20000us", "     99%   "},
		{"p99<0.02s", "     99%   "},
	} {
		t.Run(tt.expr, func(t *testing.T) {
			e, err := Parse(tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			got := r
			got.Thresholds = Check([]Expr{e}, r)
			var b strings.Builder
			if err := render.WriteText(&b, got, render.TextOptions{Latency: true}); err != nil {
				t.Fatal(err)
			}
			text, value := b.String(), got.Thresholds[0].Value
			if !strings.Contains(text, tt.line+value) {
				t.Errorf("the threshold prints %q, the text report another value:\n%s", value, text)
			}
			if want := "Threshold " + tt.expr + ": FAILED (" + value + ")\n"; !strings.Contains(text, want) {
				t.Errorf("no line %q in:\n%s", want, text)
			}
		})
	}
}
