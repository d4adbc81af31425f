package capacity

import (
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/threshold"
)

// step is an open-loop result at 1,000/s with the given figures.
func step(achieved, p99, ownP50, ownMean, cpuPct float64) stats.Result {
	return stats.Result{
		Requests: 10000, TargetRate: 1000, AchievedRate: achieved,
		Latency:            &stats.Latency{P50: ownP50, P99: p99, Max: p99, Mean: ownMean},
		LatencyUncorrected: &stats.Latency{Min: ownP50 * 0.9, P50: ownP50, P99: ownP50 * 2, Max: ownP50 * 2, Mean: ownMean},
		Client:             stats.ClientUsage{CPUs: 2, CPUPercent: cpuPct},
	}
}

func TestJudge(t *testing.T) {
	slo := []threshold.Expr{mustParse(t, "p99<50ms")}
	for _, tc := range []struct {
		name        string
		res         stats.Result
		connections int
		baseP50     float64
		want        Verdict
		why         string // a part of Why; "" for none
	}{
		{"pass", step(1000, 20e3, 1e3, 1e3, 20), 64, 1e3, Pass, ""},
		// 3% of the sends late, the rate kept: it passes, and says why although the schedule was not kept.
		{"pass, sends late", withLate(step(1000, 20e3, 1e3, 1e3, 20), 300), 64, 1e3, Pass, "3.0% of its sends over 2.00ms late"},
		{"pass, 1% late", withLate(step(1000, 20e3, 1e3, 1e3, 20), 100), 64, 1e3, Pass, ""},
		{"p99 over the SLO", step(1000, 212e3, 1e3, 1e3, 20), 64, 1e3, Fail, "p99 212.00ms >= 50ms"},
		{"rate short, server slow", step(900, 20e3, 40e3, 40e3, 20), 64, 1e3, Fail, "achieved 900 of 1,000 req/s"},
		{"client CPU saturated", step(900, 80e3, 1e3, 1e3, 95), 64, 1e3, ClientLimited, "95% of its 2 CPU(s)"},
		// 4 connections × 1,000/s × 4 ms: all busy, the server as fast as at its best.
		{"connections busy", step(950, 80e3, 4e3, 4e3, 20), 4, 4e3, ClientLimited, "raise -c"},
		// All busy, but at its best (3 ms) the server would leave a connection free: it slowed, it queues.
		{"connections busy, server queueing", step(950, 80e3, 12e3, 4e3, 20), 4, 3e3, Fail, "p99"},
		// A server slowed from 1.3 ms to 2.4 ms fills 64 connections at 26,500/s: its limit, not -c's.
		{"connections busy, server saturated", withTarget(step(26500, 900e3, 2.4e3, 2.4e3, 40), 32000), 64, 1.3e3, Fail, "achieved"},
		// Saturated, but the rate was kept: the late sends are in the latency.
		{"client CPU saturated, rate kept", step(995, 80e3, 1e3, 1e3, 95), 64, 1e3, Fail, "p99"},
		// Connections busy at the first step, with no probe: nothing shows the server's best, and
		// the step's own fastest response, delayed by the warm-up's backlog, cannot stand for it.
		{"connections busy, no base", step(950, 80e3, 4e3, 4e3, 20), 4, 0, Fail, "no probe or passing step showed"},
		{"connections free", step(950, 80e3, 1e3, 1e3, 20), 4, 1e3, Fail, "achieved"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := Judge(tc.res, slo, tc.connections, tc.baseP50)
			if j.Verdict != tc.want || !strings.Contains(j.Why, tc.why) || (tc.why == "") != (j.Why == "") {
				t.Errorf("Judge = %v %q, want %v with %q", j.Verdict, j.Why, tc.want, tc.why)
			}
		})
	}
}

// withLate is r with late of its sends over record.LateSend late.
func withLate(r stats.Result, late int64) stats.Result {
	r.ScheduleLag = &stats.ScheduleLag{LateSends: late}
	return r
}

func withTarget(r stats.Result, target float64) stats.Result {
	r.TargetRate = target
	return r
}

func mustParse(t *testing.T, s string) threshold.Expr {
	t.Helper()
	e, err := threshold.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
