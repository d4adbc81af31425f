package threshold

import (
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/stats"
)

func TestTargetThresholds(t *testing.T) {
	r := stats.Result{Requests: 4000, DurationS: 2, Latency: &stats.Latency{P99: 90_000},
		Targets: []stats.Target{
			{Requests: 1000, Latency: &stats.Latency{P99: 10_000}, Status: map[string]int64{"200": 1000}},
			{Name: "login", Requests: 3000, Latency: &stats.Latency{P99: 30_000}, Errors: stats.Errors{Status: 30}, Status: map[string]int64{"500": 30}},
		}}
	tests := []struct {
		expr  string
		value string
		ok    bool
	}{
		{"p99{target=1}<20ms", "10.00ms", true},
		{"p99{target=2}<20ms", "30.00ms", false},
		{"p99{target=login}<40ms", "30.00ms", true},
		{"p99 { target = login } < 40ms", "30.00ms", true},
		{"errors{target=login}<0.5%", "1%", false},
		{"errors{target=1}==0", "0", true},
		{"rps{target=1}>=500", "500", true},
		{"p99{target=3}<1s", "-", false},
		{"p99{target=nobody}<1s", "-", false},
	}
	for _, tt := range tests {
		e, err := Parse(tt.expr)
		if err != nil {
			t.Errorf("%s: %v", tt.expr, err)
			continue
		}
		got := e.Check(r)
		if got.Value != tt.value || got.OK != tt.ok || got.Expr != tt.expr {
			t.Errorf("%s: %+v, want value %s ok %v", tt.expr, got, tt.value, tt.ok)
		}
	}
	if _, ok := mustParse(t, "p99{target=1}<20ms").LatencyBound(); ok {
		t.Error("a target's bound is the load's latency bound")
	}
}

func TestTargetThresholdsRefused(t *testing.T) {
	for _, expr := range []string{"p99{target=1<20ms", "p99{host=a}<20ms", "p99{target=}<20ms", "server_rss_peak{target=1}<1MiB"} {
		if _, err := Parse(expr); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want a one-line error", expr, err)
		}
	}
}

func mustParse(t *testing.T, s string) Expr {
	t.Helper()
	e, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestCheckTarget: a threshold on a target the load will not have is
// refused before any load, naming the selector.
func TestCheckTarget(t *testing.T) {
	names := []string{"", "login"}
	tests := []struct {
		expr  string
		names []string
		ok    bool
	}{
		{"p99<1s", nil, true},
		{"p99{target=1}<1s", names, true},
		{"p99{target=2}<1s", names, true},
		{"p99{target=login}<1s", names, true},
		{"p99{target=3}<1s", names, false},
		{"p99{target=0}<1s", names, false},
		{"p99{target=logn}<1s", names, false},
		{"p99{target=1}<1s", nil, false},
	}
	for _, tt := range tests {
		e, err := Parse(tt.expr)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.CheckTarget(tt.names); (err == nil) != tt.ok {
			t.Errorf("%s with %q: %v, want ok %v", tt.expr, tt.names, err, tt.ok)
		}
	}
}
