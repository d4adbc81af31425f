package engine

import (
	"fmt"
	"math"
	"strconv"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/pummel-dev/pummel/internal/units"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// result merges the measured phases' recorders: the closed-loop run, or
// the open-loop stages, each also reported on its own when there are
// several. It also returns the measured latencies as recorded, merged,
// for a script's done().
func (r *Load) result(ws []*Worker, elapsed time.Duration, rates []float64) (stats.Result, *hdrhistogram.Histogram) {
	measured := []int{MeasuredPhase}
	var stages []stats.Result
	if r.Sched != nil {
		measured = nil
		for i := range r.Config.Rates {
			phase := MeasuredPhase + i
			st := stats.Merge(recorders(ws, phase), r.Config.Duration, nil)
			st.TargetRate = r.targetRate(i)
			if r.Config.ramps(i) {
				st.Ramp = &stats.Ramp{From: r.Config.Shard.Rate(r.Config.stageFrom(i)), To: r.Config.Shard.Rate(r.Config.Rates[i])}
			}
			st.Warnings = append(st.Warnings, scheduleWarnings(st)...)
			stages = append(stages, st)
			measured = append(measured, phase)
		}
	}
	all := record.Merge(recorders(ws, measured...))
	res, latencies := stats.FromRecorder(all, elapsed, rates), all.Totals().Latency
	if r.Sched == nil {
		return res, latencies
	}
	if len(stages) == 1 {
		res.TargetRate, res.Ramp = stages[0].TargetRate, stages[0].Ramp
		res.Warnings = append(res.Warnings, stages[0].Warnings...)
		return res, latencies
	}
	res.AchievedRate = 0 // a rate across stages of different rates means little
	res.Stages = stages
	for i, st := range stages {
		for _, w := range st.Warnings {
			res.Warnings = append(res.Warnings, fmt.Sprintf("stage %d (%s/s): %s", i+1, r.Config.stageName(i), w))
		}
	}
	return res, latencies
}

// scheduleWarnings says when an open-loop stage could not keep its
// schedule, rather than letting a lower rate pass for the server's.
func scheduleWarnings(st stats.Result) []string {
	sent := st.Requests + st.Errors.Socket()
	if sent == 0 || st.ScheduleLag == nil {
		return nil
	}
	if st.AchievedRate == 0 || st.ScheduleKept() {
		return nil
	}
	late := st.ScheduleLag.LateSends
	mean := ""
	if st.Ramp != nil {
		mean = " (the ramp's mean)"
	}
	target := strconv.FormatFloat(math.Round(st.TargetRate*100)/100, 'f', -1, 64) // 1000, or 29725.92: no float's every digit
	return []string{fmt.Sprintf("the schedule was not kept: achieved %.2f of %s requests/s%s, %d of %d sends more than %s late (p99 lag %s); every connection was busy (raise -c) or the client's CPU was saturated",
		st.AchievedRate, target, mean, late, sent, units.Time(float64(record.LateSend.Microseconds())), units.Time(st.ScheduleLag.P99))}
}

// targetRate is this process's target in open-loop stage i, its mean rate
// for a ramp: its share of the stage's -R when it is one part of a sharded
// load.
func (r *Load) targetRate(i int) float64 { return r.Config.Shard.Rate(r.Config.MeanRate(i)) }
