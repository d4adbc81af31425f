package threshold

import (
	"testing"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

func TestAllowed(t *testing.T) {
	for _, tc := range []struct {
		expr   string
		want   float64
		wantOK bool
	}{
		{"p99<5ms", 0.01, true},
		{"p99.9<=20ms", 0.001, true},
		{"p50<1s", 0.5, true},
		{"errors<0.1%", 0.001, true},
		{"status_5xx<=1%", 0.01, true},
		{"errors<10", 0, false},         // a count holds or not, whatever the samples
		{"p99>5ms", 0, false},           // no SLO bounds a latency from below
		{"max<5ms", 0, false},           // one response decides it
		{"mean<5ms", 0, false},          // not a share
		{"p99{target=1}<5ms", 0, false}, // one target's histogram is not the load's
		{"server_rss_peak<1GiB", 0, false},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			e, err := Parse(tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := e.Allowed()
			if ok != tc.wantOK || (ok && !within(got, tc.want)) {
				t.Errorf("Allowed = %g, %v; want %g, %v", got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func within(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }

// TestEvidence counts what a share threshold bounds: responses at or
// over a latency bound, read from the histogram, or failed outcomes.
func TestEvidence(t *testing.T) {
	h := record.NewHistogram()
	for i := range 1000 {
		ms := int64(1)
		switch {
		case i < 3:
			ms = 40
		case i < 10:
			ms = 5 // at the bound: against p99<5ms
		}
		h.RecordValue(ms * 1e6) //nolint:errcheck // within range
	}
	enc, err := stats.EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	res := stats.Result{Requests: 1000, Latency: stats.Summarize(h), LatencyHistogram: enc, Errors: stats.Errors{Timeout: 4, Status: 6}}
	for _, tc := range []struct {
		expr             string
		against, outcome int64
	}{
		{"p99<5ms", 10, 1000},
		{"p99<6ms", 3, 1000},
		{"p99<100ms", 0, 1000},
		{"p99<0.5ms", 1000, 1000},
		{"errors<1%", 10, 1004}, // 4 socket errors count among the outcomes
		{"errors_timeout<1%", 4, 1004},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			e, err := Parse(tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			ev, ok, err := e.Evidence(res)
			if err != nil || !ok || ev.Against != tc.against || ev.Outcomes != tc.outcome {
				t.Errorf("Evidence = %+v, %v, %v; want %d of %d", ev, ok, err, tc.against, tc.outcome)
			}
		})
	}
	e, _ := Parse("p99<5ms")
	if _, ok, _ := e.Evidence(stats.Result{}); ok {
		t.Error("a result with no response has no latency evidence")
	}
}
