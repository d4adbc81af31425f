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
	// 480/s of 500/s", "client CPU 96% of 2: …") or is not yet decided;
	// for a pass, why it passed although it did not keep its schedule
	// (lateSendsNote), else empty.
	Why string
	// Samples is how many outcomes the step was judged on: its
	// responses and socket errors.
	Samples int64
	// Overwhelming is true for a fail where most outcomes went against a
	// share threshold: no passing burst of a busy machine's noise, so
	// the search takes it without running the step again.
	Overwhelming bool
}

// busyConnections is the share of the connections in use on average
// (Little's law: the achieved rate × the mean time a request holds its
// connection) from which every connection counts as busy.
const busyConnections = 0.9

// Judge decides a step's verdict from its result res, the SLO, the
// connections it had and the server's best response time (µs, from the
// actual send: the median at the lowest rate that passed, else the
// probe's fastest; 0 if neither is known).
//
// A threshold that bounds a share (p99<5ms, errors<0.1%: see
// threshold.Expr.Allowed) is judged by its evidence at Confidence:
// it holds or breaks only when the counts say so, and a step too short
// to tell either way (one slow response among 80 against p99) is
// Undecided: the search measures it longer. Every other threshold
// holds or not as its figure says.
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
func Judge(res stats.Result, slo []threshold.Expr, connections int, best float64) Judgement {
	samples := res.Requests + res.Errors.Socket()
	var failed []stats.Threshold
	var broken, open []string
	overwhelming := false
	for _, e := range slo {
		t := e.Check(res)
		switch d, why, most := judgeOne(e, t, res); d {
		case breaks:
			failed, broken = append(failed, t), append(broken, why)
			overwhelming = overwhelming || most
		case undecided:
			open = append(open, why)
		}
	}
	if len(broken) == 0 && len(open) == 0 && res.KeptRate() {
		return Judgement{Verdict: Pass, Why: lateSendsNote(res), Samples: samples}
	}
	if !res.KeptRate() {
		why, note := clientLimit(res, connections, best)
		if why != "" {
			return Judgement{Verdict: ClientLimited, Failed: failed, Why: why, Samples: samples}
		}
		short := fmt.Sprintf("achieved %s of %s req/s", render.FormatRateWhole(res.AchievedRate), render.FormatRateWhole(res.TargetRate))
		if note != "" {
			short += ", " + note
		}
		broken = append(broken, short)
	}
	if len(broken) > 0 {
		return Judgement{Verdict: Fail, Failed: failed, Why: strings.Join(broken, ", "), Samples: samples, Overwhelming: overwhelming}
	}
	return Judgement{Verdict: Undecided, Why: strings.Join(open, ", "), Samples: samples}
}

// judgeOne decides one threshold e, checked as t, on res: by its
// evidence when it bounds a share, else as t says. why says how it broke
// or why it is not decided; most is true when most outcomes went
// against it.
func judgeOne(e threshold.Expr, t stats.Threshold, res stats.Result) (d decision, why string, most bool) {
	ev, ok, err := e.Evidence(res)
	if !ok || err != nil {
		if t.OK {
			return holds, "", false
		}
		return breaks, e.Why(t), false
	}
	share := render.FormatSignificant(100*ev.Allowed) + "%"
	switch d = decide(ev); d {
	case breaks:
		why = fmt.Sprintf("%s: %s of %s beyond the bound, over %s at %.0f%% confidence",
			e.Why(t), render.FormatCount(ev.Against), render.FormatCount(ev.Outcomes), share, 100*Confidence)
	case undecided:
		why = fmt.Sprintf("%s: %s of %s beyond the bound cannot tell %s from more or less (%s needed with none beyond it)",
			e, render.FormatCount(ev.Against), render.FormatCount(ev.Outcomes), share, render.FormatCount(samplesToPass(ev.Allowed)))
	}
	return d, why, 2*ev.Against > ev.Outcomes
}

// clientLimit says what limited the client in res, or "" if nothing
// did; note says why every connection being busy was not the client's
// limit, when they were. best is the
// server's time at its best (µs), 0 if unknown: this step's own fastest
// response cannot stand for it, as a server that queues work has
// already delayed it, and connections busy because the server queues
// are the server's limit.
func clientLimit(res stats.Result, connections int, best float64) (why, note string) {
	if res.Client.CPUPercent >= stats.SaturatedPercent {
		return fmt.Sprintf("pummel used %.0f%% of its %d CPU(s): give it more (-t, taskset) or more machines (--shard)", res.Client.CPUPercent, res.Client.CPUs), ""
	}
	own := res.LatencyUncorrected
	if own == nil || connections <= 0 {
		return "", ""
	}
	inUse := busyConnections * float64(connections)
	if res.AchievedRate*own.Mean/1e6 < inUse {
		return "", "" // connections were free: the client kept up
	}
	if needed := res.TargetRate * best / 1e6; best > 0 && needed >= inUse {
		return fmt.Sprintf("every connection was busy: %s req/s need about %.0f requests in flight even at the server's best (%s a request), and at most %d can be (-c, times --streams with --http2): raise -c",
			render.FormatRateWhole(res.TargetRate), needed/busyConnections, render.FormatTime(best), connections), ""
	}
	if best <= 0 {
		return "", "every connection busy, and no probe or passing step showed the server's best time"
	}
	return "", "every connection busy with the server's queue"
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
