package threshold

import (
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/internal/parse"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/figure"
)

// run is a result with every figure a threshold reads: 990 responses
// (10 of them 503) and 10 socket errors, so 1,000 outcomes.
func run() stats.Result {
	startup := 0.0421
	return stats.Result{
		Requests: 990, RequestsPerS: 12345.6,
		Status:  map[string]int64{"200": 975, "404": 5, "503": 10},
		Errors:  stats.Errors{Read: 4, Timeout: 6, Status: 15, Validation: 2},
		Latency: &stats.Latency{Min: 80, Mean: 900, Max: 31_000, P50: 850, P75: 1000, P90: 1200, P95: 1500, P99: 23_412, P999: 30_000, P9999: 31_000},
		Server: []stats.ServerUsage{
			{PID: 1, RSSBytes: stats.RSS{Idle: 10 << 20, Peak: 150 << 20, After: 40 << 20}, CPUUsPerRequest: 25, StartupS: &startup},
			{PID: 2, RSSBytes: stats.RSS{Idle: 12 << 20, Peak: 210 << 20, After: 41 << 20}, CPUUsPerRequest: 5},
		},
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		expr  string
		value string
		ok    bool
	}{
		{"p99<20ms", "23.41ms", false},
		{"p99 < 25 ms", "23.41ms", true},
		{"p99<=23412us", "23.41ms", true},
		{"p50<1ms", "0.85ms", true},
		{"p99.9<=30ms", "30.00ms", true},
		{"p99_99<1s", "31.00ms", true},
		{"max<30ms", "31.00ms", false},
		{"min>=80us", "80.00us", true},
		{"mean!=900us", "0.90ms", false},
		{"rps>=10000", "12.3k", true},
		{"rps>=13k", "12.3k", false},
		{"rps>1M", "12.3k", false},        // its own suffix, not the bound's: "0.0123M"
		{"errors<0.1%", "2.7%", false},    // 4+6+15+2 = 27 of 1,000 outcomes
		{"errors<=27", "27", true},        // a count
		{"errors_timeout==0", "6", false}, // one class
		{"errors_validation<1%", "0.2%", true},
		{"status_5xx==0", "10", false},
		{"status_5xx<=1%", "1%", true},
		{"status_4xx<10", "5", true},
		{"status_503>=10", "10", true},
		{"status_2xx>900", "975", true},
		{"server_rss_peak<200MiB", "210.00MiB", false}, // the worst of two servers
		{"server_rss_idle<=12MiB", "12.00MiB", true},
		{"server_rss_after<50MB", "41.00MiB", true}, // MB is 10^6 bytes; printed in MiB,
		{"server_cpu_per_request<20us", "25.00us", false},
		{"startup<100ms", "42.10ms", true},
	}
	r := run()
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			e, err := Parse(tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			want := stats.Threshold{Expr: strings.TrimSpace(tt.expr), Value: tt.value, OK: tt.ok}
			if got := e.Check(r); got != want {
				t.Errorf("Check = %+v, want %+v", got, want)
			}
		})
	}
}

// TestCheckAbsentFigure: a figure the result lacks fails, with value "-",
// rather than passing on a zero.
func TestCheckAbsentFigure(t *testing.T) {
	empty := stats.Result{Status: map[string]int64{}}
	for _, expr := range []string{"p99<20ms", "max>0us", "server_rss_peak<1GiB", "startup<1s", "errors<1%", "status_5xx<=0.1%"} {
		e, err := Parse(expr)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Check(empty); got.OK || got.Value != "-" {
			t.Errorf("%s on an empty result: %+v, want a failure with value -", expr, got)
		}
	}
	// --exec --runs: each run watched its own server; the worst counts.
	startup := func(s float64) []stats.ServerUsage { return []stats.ServerUsage{{StartupS: &s}} }
	runs := stats.Result{Runs: []stats.Result{{Server: startup(0.05)}, {Server: startup(0.12)}}}
	e, _ := Parse("startup<100ms")
	if got := e.Check(runs); got.OK || got.Value != "120.00ms" {
		t.Errorf("startup over two runs: %+v, want 120ms, failed", got)
	}
}

func TestParseRefuses(t *testing.T) {
	tests := []struct {
		expr string
		want string // in the error
	}{
		{"", "FIGURE OP BOUND"},
		{"p99", "FIGURE OP BOUND"},
		{"<20ms", "FIGURE OP BOUND"},
		{"p99=20ms", `"=" is not a comparison`},
		{"p98<20ms", `unknown figure "p98"`},
		{"errors_bogus<1", `unknown figure "errors_bogus"`},
		{"status_6xx==0", `unknown figure "status_6xx"`},
		{"p99<20", "needs a unit"},
		{"p99<20furlongs", `unknown unit "furlongs"`},
		{"p99<fast", "not a number"},
		{"p99<-1ms", "not a number"},
		{"p99<NaNms", "not a number"},
		{"rps>nan", "not a number"},
		{"rps>inf", "not a number"},
		{"errors<+Inf%", "not a number"},
		{"p99<" + strings.Repeat("9", 400) + "ms", "not a number"},
		{"p99<1%", "a percentage applies to errors and status counts only"},
		{"rps>10%", "a percentage applies"},
		{"server_rss_peak<200XB", `unknown unit "XB"`},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			_, err := Parse(tt.expr)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Parse(%q) = %v, want one line with %q", tt.expr, err, tt.want)
			}
		})
	}
}

func TestNeed(t *testing.T) {
	for expr, want := range map[string]figure.Need{
		"p99<1ms": figure.NeedNothing, "errors==0": figure.NeedNothing, "server_rss_peak<1GiB": figure.NeedServer,
		"server_cpu_per_request<1ms": figure.NeedServer, "startup<1s": figure.NeedExec,
	} {
		if e, err := Parse(expr); err != nil || e.Need() != want {
			t.Errorf("%s: Need() = %v (%v), want %v", expr, e.Need(), err, want)
		}
	}
}

// A bound's size, count or rate reads as the command line reads -c, -n,
// --max-body and -R (internal/parse): the same suffixes, the same values.
func TestBoundsReadAsTheCommandLine(t *testing.T) {
	tests := []struct {
		bound       string
		count, size bool // whether -c and --max-body take it
	}{
		{"10", true, true},
		{"10k", true, true},
		{"10K", true, true},
		{"10M", true, true},
		{"1G", true, true},
		{"64MB", false, true},
		{"64kB", false, true},
		{"64B", false, true},
		{"200MiB", false, true},
		{"1GiB", false, true},
		{"10XB", false, false},
		{"10T", false, false},
	}
	for _, tt := range tests {
		count, countOK := parse.Count(tt.bound)
		size, sizeOK := parse.Size(tt.bound)
		rate, rateOK := parse.Rate(tt.bound)
		if countOK != tt.count || sizeOK != tt.size {
			t.Errorf("%s: a count %v, a size %v; want %v, %v", tt.bound, countOK, sizeOK, tt.count, tt.size)
		}
		for _, c := range []struct {
			k    figure.Unit
			ok   bool
			want int64
		}{{figure.Count, countOK, count}, {figure.Rate, rateOK, int64(rate)}, {figure.Bytes, sizeOK, size}} {
			bound, _, scale, err := readBound(c.k, tt.bound)
			if (err == nil) != c.ok || err == nil && int64(bound*scale) != c.want {
				t.Errorf("%s as a bound of kind %d: %v × %v (%v); the command line reads %d (%v)", tt.bound, c.k, bound, scale, err, c.want, c.ok)
			}
		}
	}
}

func TestWhy(t *testing.T) {
	for _, tc := range []struct{ expr, value, want string }{
		{"p99<50ms", "212ms", "p99 212ms >= 50ms"},
		{" errors <= 0.1% ", "2.5%", "errors 2.5% > 0.1%"},
		{"status_5xx==0", "3", "status_5xx 3 != 0"},
		{"p50<1ms", "-", "p50 absent"},
	} {
		e, err := Parse(tc.expr)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Why(stats.Threshold{Expr: e.String(), Value: tc.value}); got != tc.want {
			t.Errorf("Why(%q, %q) = %q, want %q", tc.expr, tc.value, got, tc.want)
		}
	}
	if e, _ := Parse("rps>1000"); !e.OnRate() {
		t.Error("rps>1000: OnRate false")
	}
	if e, _ := Parse("p99<1ms"); e.OnRate() {
		t.Error("p99<1ms: OnRate true")
	}
}
