package threshold

import (
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/render"
)

func result(rps, p99 float64, errs int64) stats.Result {
	return stats.Result{RequestsPerS: rps, Latency: &stats.Latency{P99: p99}, Errors: stats.Errors{Read: errs}}
}

func TestRegressionCheck(t *testing.T) {
	base := []stats.Result{result(10000, 1000, 0)}
	tests := []struct {
		bound string
		next  []stats.Result
		want  string // "" for no regression
	}{
		{"5%", []stats.Result{result(9600, 1000, 0)}, ""},
		{"5%", []stats.Result{result(9400, 1000, 0)}, "rps fell by 6% (10,000.00 → 9,400.00), past --max-regression 5%"},
		{"5%", []stats.Result{result(20000, 1000, 0)}, ""}, // faster is no regression
		{"rps=0%", []stats.Result{result(9999, 1000, 0)}, "rps fell by 0.01% (10,000.00 → 9,999.00), past --max-regression rps=0%"},
		{"p99=10%", []stats.Result{result(10000, 1200, 0)}, "p99 rose by 20% (1.00ms → 1.20ms), past --max-regression p99=10%"},
		{"p99=10%", []stats.Result{result(10000, 900, 0)}, ""}, // lower latency is no regression
		{"p99=10%", []stats.Result{result(1, 1100, 0)}, ""},    // exactly at the bound
		// The median of each side: one slow run of three does not regress.
		{"p99=10%", []stats.Result{result(1, 1000, 0), result(1, 5000, 0), result(1, 1050, 0)}, ""},
		{"errors=50%", []stats.Result{result(10000, 1000, 3)}, "errors rose from 0 (0 → 3), past --max-regression errors=50%"},
	}
	for _, tt := range tests {
		t.Run(tt.bound, func(t *testing.T) {
			g, err := ParseRegression(tt.bound)
			if err != nil {
				t.Fatal(err)
			}
			got, err := g.Check(base, tt.next)
			if err != nil || got != tt.want {
				t.Errorf("Check = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestRegressionRefuses(t *testing.T) {
	for bound, want := range map[string]string{
		"5":        "not a percentage",
		"fast%":    "not a percentage",
		"-5%":      "not a percentage",
		"nan%":     "not a percentage",
		"NaN%":     "not a percentage",
		"p99=NaN%": "not a percentage",
		"-nan%":    "not a percentage",
		"inf%":     "not a percentage",
		"+Inf%":    "not a percentage",
		"1e999%":   "not a percentage",
		"p98=10%":  `unknown figure "p98"`,
		"p99=10ms": "not a percentage",
	} {
		if _, err := ParseRegression(bound); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseRegression(%q) = %v, want %q", bound, err, want)
		}
	}
	g, _ := ParseRegression("startup=10%")
	if _, err := g.Check([]stats.Result{result(1, 1, 0)}, []stats.Result{result(1, 1, 0)}); err == nil || !strings.Contains(err.Error(), "BASE lacks startup") {
		t.Errorf("a figure neither side has: %v", err)
	}
}

// TestRegressionReadsTheWorseServer: with two watched servers, the first
// better than the second, a server figure's regression is the worse
// server's, as a threshold and compare's table read it: here its peak
// rose by 30%, while the first server's stayed put.
func TestRegressionReadsTheWorseServer(t *testing.T) {
	side := func(first, second int64) []stats.Result {
		return []stats.Result{{Server: []stats.ServerUsage{
			{PID: 1, RSSBytes: stats.RSS{Peak: first}}, {PID: 2, RSSBytes: stats.RSS{Peak: second}}}}}
	}
	g, err := ParseRegression("server_rss_peak=25%")
	if err != nil {
		t.Fatal(err)
	}
	got, err := g.Check(side(100<<20, 200<<20), side(100<<20, 260<<20))
	if err != nil || !strings.HasPrefix(got, "server_rss_peak rose by 30% ") {
		t.Errorf("Check = %q, %v; want a 30%% rise of the worse server", got, err)
	}
	threshold, _ := Parse("server_rss_peak<250MiB")
	if v, want := threshold.Check(side(100<<20, 260<<20)[0]), render.FormatBytes(260<<20); v.Value != want {
		t.Errorf("the threshold reads %s, want the worse server's %s", v.Value, want)
	}
}
