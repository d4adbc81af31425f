package capacity

import (
	"fmt"
	"strings"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
	"github.com/pummel-dev/pummel/stats/render"
	"github.com/pummel-dev/pummel/threshold"
)

// Judgement is what one step showed, with the reason in words.
type Judgement struct {
	Verdict Verdict
	// Failed holds the thresholds the step failed.
	Failed []stats.Threshold
	// Why says why the step did not pass ("p99 212ms >= 50ms", "achieved
	// 480/s of 500/s", "client CPU 96% of 2: …"); for a pass, why it
	// passed although it did not keep its schedule (lateSendsNote), else
	// empty.
	Why string
}

// busyConnections is the share of the connections in use on average
// (Little's law: the achieved rate × the mean time a request holds its
// connection) from which every connection counts as busy.
const busyConnections = 0.9

// Judge decides a step's verdict from its result res, the SLO, the
// connections it had and the server's median response time (µs, from the
// actual send) at the lowest rate that passed before it (0 if none).
//
// A step passes when every threshold holds and the achieved rate is
// within 1% of the target. One that fell short of the rate is
// client-limited when the client could not carry it: its CPU reached
// stats.SaturatedPercent of the CPUs it may use, or every connection was
// busy although the server answered as fast as at its best (so the rate
// needs more connections than -c even from a server that does not slow
// down: raise -c). Connections that are all busy because the server
// slowed down are the server's limit: more of them would only queue more
// work in it. Otherwise the step failed, and the server is the limit.
// Sends that merely left late do not make a step client-limited, nor
// keep it from passing: their lateness is in the latency the thresholds
// judge. A pass with more late sends than the schedule allows says so in
// its Why, as the engine's warning says the schedule was not kept.
func Judge(res stats.Result, slo []threshold.Expr, connections int, baseP50 float64) Judgement {
	checks := threshold.Check(slo, res)
	failed := stats.FailedThresholds(checks)
	if len(failed) == 0 && res.KeptRate() {
		return Judgement{Verdict: Pass, Why: lateSendsNote(res)}
	}
	if !res.KeptRate() {
		if why := clientLimit(res, connections, baseP50); why != "" {
			return Judgement{Verdict: ClientLimited, Failed: failed, Why: why}
		}
	}
	return Judgement{Verdict: Fail, Failed: failed, Why: reasons(res, slo, checks)}
}

// clientLimit says what limited the client in res, or "" if nothing did.
// best is the server's median time at its best (µs): at the lowest rate
// that passed, or else this step's fastest response.
func clientLimit(res stats.Result, connections int, best float64) string {
	if res.Client.CPUPercent >= stats.SaturatedPercent {
		return fmt.Sprintf("pummel used %.0f%% of its %d CPU(s): give it more (-t, taskset) or more machines (--shard)", res.Client.CPUPercent, res.Client.CPUs)
	}
	own := res.LatencyUncorrected
	if own == nil || connections <= 0 {
		return ""
	}
	busy := busyConnections * float64(connections)
	if res.AchievedRate*own.Mean/1e6 < busy {
		return "" // connections were free: the client kept up
	}
	if best <= 0 {
		best = own.Min
	}
	if needed := res.TargetRate * best / 1e6; needed >= busy {
		return fmt.Sprintf("every connection was busy: %s req/s need about %.0f requests in flight even at the server's best (%s a request), and at most %d can be (-c, times --streams with --http2): raise -c",
			render.FormatRateWhole(res.TargetRate), needed/busyConnections, render.FormatTime(best), connections)
	}
	return ""
}

// reasons lists why a failed step failed: each threshold it missed, and
// the rate it fell short of.
func reasons(res stats.Result, slo []threshold.Expr, checks []stats.Threshold) string {
	var why []string
	for i, t := range checks {
		if !t.OK {
			why = append(why, slo[i].Why(t))
		}
	}
	if !res.KeptRate() {
		why = append(why, fmt.Sprintf("achieved %s of %s req/s", render.FormatRateWhole(res.AchievedRate), render.FormatRateWhole(res.TargetRate)))
	}
	return strings.Join(why, ", ")
}

// lateSendsNote says why a step that passed without keeping its schedule
// (more than 1% of its sends late, its rate kept) still passes; "" for a
// step that kept it.
func lateSendsNote(res stats.Result) string {
	if res.ScheduleKept() {
		return ""
	}
	return fmt.Sprintf("with %.1f%% of its sends over %s late: its latency runs from each intended send, so its figures include their lateness",
		100*res.LateShare(), render.FormatTime(float64(record.LateSend.Microseconds())))
}
