package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/stats"
)

func TestCapacityVerdict(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	search := stats.Search{StepS: 10, ConfirmS: 30, From: 10, To: 20000, Precision: 0.02}
	slo := []string{"p99<50ms", "errors<0.1%"}
	confirmed := &stats.Latency{P99: 6300}
	for _, tc := range []struct {
		name string
		r    stats.Result
		want string
	}{
		{"server", stats.Result{Latency: confirmed, Capacity: &stats.Capacity{Rate: f(11400), Confirmed: true, PassRate: f(11400), FailRate: f(11600),
			LimitedBy: stats.LimitServer, Thresholds: slo, Why: "p99 212.00ms >= 50ms", Search: search}},
			"Capacity: 11,400 req/s within p99<50ms, errors<0.1% (confirmed over 30s: p99 6.30ms); 11,600 req/s failed: p99 212.00ms >= 50ms"},
		{"range", stats.Result{Latency: confirmed, Capacity: &stats.Capacity{Rate: f(20000), Confirmed: true, PassRate: f(20000),
			LimitedBy: stats.LimitRange, Thresholds: slo, Search: search}},
			"Capacity: at least 20,000 req/s within p99<50ms, errors<0.1% (confirmed over 30s: p99 6.30ms); every rate tried up to 20,000 req/s passed"},
		{"max steps", stats.Result{Latency: confirmed, Capacity: &stats.Capacity{Rate: f(80), Confirmed: true, PassRate: f(80),
			LimitedBy: stats.LimitRange, Thresholds: slo, Search: stats.Search{ConfirmS: 30, From: 10, To: 20000, MaxSteps: 4}}},
			"Capacity: at least 80 req/s within p99<50ms, errors<0.1% (confirmed over 30s: p99 6.30ms); every rate tried passed, and --max-steps 4 ended the search below --to 20,000 req/s"},
		{"client", stats.Result{Capacity: &stats.Capacity{Rate: f(640), PassRate: f(640), LimitedBy: stats.LimitClient, Thresholds: slo,
			Why: "at 1,280 req/s, every connection was busy (4 of 4 in use on average): raise -c", Search: search}},
			"Capacity: at least 640 req/s within p99<50ms, errors<0.1% (not confirmed: the confirmation runs failed); the client was the limit above it: at 1,280 req/s, every connection was busy (4 of 4 in use on average): raise -c"},
		{"none", stats.Result{Capacity: &stats.Capacity{FailRate: f(10), LimitedBy: stats.LimitServer, Thresholds: slo, Why: "p99 80.00ms >= 50ms", Search: search}},
			"Capacity: no rate from 10 req/s met p99<50ms, errors<0.1%: p99 80.00ms >= 50ms"},
		{"interrupted", stats.Result{Interrupted: true, Capacity: &stats.Capacity{Rate: f(40), PassRate: f(40), LimitedBy: stats.LimitRange, Thresholds: slo, Search: search}},
			"Capacity: interrupted: at least 40 req/s within p99<50ms, errors<0.1%, the highest rate that passed before"},
		{"stopped", stats.Result{Steps: make([]stats.Result, 3), Capacity: &stats.Capacity{Rate: f(40), PassRate: f(40), LimitedBy: stats.LimitRange, Thresholds: slo,
			Stopped: "cannot connect to the target", Search: search}},
			"Capacity: the search stopped after 3 steps: cannot connect to the target; at least 40 req/s within p99<50ms, errors<0.1% passed before"},
		{"not confirmed", stats.Result{Steps: []stats.Result{{TargetRate: 18400, StepResult: &stats.StepResult{Verdict: stats.VerdictNotConfirmed}},
			{TargetRate: 17667, StepResult: &stats.StepResult{Verdict: stats.VerdictNotConfirmed}}},
			Capacity: &stats.Capacity{Rate: f(18400), PassRate: f(18400), FailRate: f(18600), LimitedBy: stats.LimitServer, Thresholds: slo, Search: search}},
			"Capacity: not confirmed: 18,400 req/s passed its step within p99<50ms, errors<0.1%, but every longer confirmation run, down to 17,667 req/s, failed: the server does not hold these rates for 30s"},
		{"inconclusive throughout", stats.Result{Capacity: &stats.Capacity{FailRate: f(40), FailInconclusive: true, LimitedBy: stats.LimitServer, Thresholds: []string{"p99.99<50ms"},
			Why: "p99.99<50ms: 0 of 160 beyond the bound cannot tell 0.01% from more or less (29,956 needed with none beyond it)", Search: search}},
			"Capacity: unknown: no step from 10 req/s could be judged within p99.99<50ms; up to 40 req/s: p99.99<50ms: 0 of 160 beyond the bound cannot tell 0.01% from more or less (29,956 needed with none beyond it)"},
		{"no search", stats.Result{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := CapacityVerdict(tc.r); got != tc.want {
				t.Errorf("CapacityVerdict =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestCapacityMarkdownSortsStepsByRate(t *testing.T) {
	rate := 200.0
	step := func(target float64, verdict string) stats.Result {
		return stats.Result{TargetRate: target, AchievedRate: target, Latency: &stats.Latency{P50: 100, P90: 200, P99: 300, P999: 400},
			StepResult: &stats.StepResult{Verdict: verdict}, Server: []stats.ServerUsage{{CPUUsPerRequest: 5, RSSBytes: stats.RSS{Peak: 1 << 19}},
				{CPUUsPerRequest: 12, RSSBytes: stats.RSS{Peak: 1 << 20}}}} // the worst process's figures show
	}
	r := stats.Result{Config: stats.Config{Method: "GET", URL: "http://h/", Command: "pummel capacity --threshold 'p99<1ms' http://h/"},
		Server:   []stats.ServerUsage{{}},
		Capacity: &stats.Capacity{Rate: &rate, PassRate: &rate, LimitedBy: stats.LimitRange, Thresholds: []string{"p99<1ms"}, Search: stats.Search{From: 10, To: 200}},
		Steps:    []stats.Result{{Latency: &stats.Latency{}, StepResult: &stats.StepResult{Verdict: stats.VerdictProbe}}, step(100, "pass"), step(200, "pass"), step(150, "pass")}}
	var b bytes.Buffer
	if err := WriteCapacityMarkdown(&b, r); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if !strings.HasPrefix(md, "## Capacity of GET http://h/\n") {
		t.Errorf("markdown does not open with its heading:\n%s", md)
	}
	i100, i150, i200 := strings.Index(md, "\n| 100 |"), strings.Index(md, "\n| 150 |"), strings.Index(md, "\n| 200 |")
	if i100 < 0 || !(i100 < i150 && i150 < i200) || strings.Contains(md, "probe") {
		t.Errorf("steps not by rate, or the probe in the table:\n%s", md)
	}
	if !strings.Contains(md, "| 12.00us | 1.00MiB | pass |") || !strings.Contains(md, "pummel capacity --threshold") {
		t.Errorf("markdown lacks the server's figures or the command:\n%s", md)
	}
}

// TestCapacityBracket: the search line says what the answer is worth:
// the steps, the bracket reached, and whether it met the precision or
// what ended it short of it.
func TestCapacityBracket(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	search := stats.Search{From: 10, To: 20000, Precision: 0.02, MaxSteps: 10}
	for _, tc := range []struct {
		name, want, warning string
		c                   stats.Capacity
	}{
		{"precision", "Search: 9 steps; the capacity lies between 11,400 req/s (passed) and 11,600 (failed), within the 2% asked", "",
			stats.Capacity{PassRate: f(11400), FailRate: f(11600), PrecisionReached: true, EndedBy: stats.EndedPrecision, StepsRun: 9, Search: search}},
		{"max steps", "Search: 10 steps; the capacity lies between 2,560 req/s (passed) and 5,120 (failed), not within the 2% asked: --max-steps 10 ended it",
			"the search ended before its 2% precision (--max-steps 10 ended it): the capacity is only known to lie between 2,560 and 5,120 req/s",
			stats.Capacity{PassRate: f(2560), FailRate: f(5120), EndedBy: stats.EndedMaxSteps, StepsRun: 10, Search: search}},
		{"confirmed lower", "Search: 15 steps; the capacity lies between 23,600 req/s (passed) and 24,000 (failed), within the 2% asked; confirmed lower, at 22,212 req/s: the longer runs above it failed", "",
			stats.Capacity{Rate: f(22212), Confirmed: true, PassRate: f(23600), FailRate: f(24000), PrecisionReached: true, EndedBy: stats.EndedPrecision, StepsRun: 15, Search: search}},
		{"inconclusive edge", "Search: 7 steps; the capacity lies between 400 req/s (passed) and 406 (inconclusive), within the 2% asked", "",
			stats.Capacity{PassRate: f(400), FailRate: f(406), FailInconclusive: true, PrecisionReached: true, EndedBy: stats.EndedPrecision, StepsRun: 7, Search: search}},
		{"range", "Search: 1 step; the capacity is at least 20,000 req/s (passed), not within the 2% asked: every rate up to --to 20,000 req/s passed", "",
			stats.Capacity{PassRate: f(20000), EndedBy: stats.EndedTo, StepsRun: 1, Search: search}},
		{"none", "Search: 2 steps: no rate down to --from 10 req/s passed", "",
			stats.Capacity{FailRate: f(10), EndedBy: stats.EndedFrom, StepsRun: 2, Search: search}},
		{"stopped", "", "", stats.Capacity{PassRate: f(40), Stopped: "cannot connect", Search: search}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c
			if got := CapacityBracket(stats.Result{Capacity: &c}); got != tc.want {
				t.Errorf("CapacityBracket =\n%s\nwant\n%s", got, tc.want)
			}
			if got := CapacityPrecisionWarning(c); tc.name != "stopped" && got != tc.warning {
				t.Errorf("CapacityPrecisionWarning =\n%s\nwant\n%s", got, tc.warning)
			}
		})
	}
}
