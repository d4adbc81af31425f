package stats

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/pummel-dev/pummel/stats/record"
)

// Merge folds the workers' recorders into one Result. elapsed is the measured
// duration; rates are the per-worker requests/s samples (see Spread). The
// recorders are left untouched.
func Merge(recs []*record.Recorder, elapsed time.Duration, rates []float64) Result {
	return FromRecorder(record.Merge(recs), elapsed, rates)
}

// FromRecorder is Merge of recorders already merged into rec.
func FromRecorder(rec *record.Recorder, elapsed time.Duration, rates []float64) Result {
	all := rec.Totals()
	res := Result{
		Requests:     all.Requests,
		DurationS:    elapsed.Seconds(),
		BytesRead:    all.BytesRead,
		BytesWritten: all.BytesWritten,
		Status:       make(map[string]int64, len(all.Status)),
		Reconnects:   all.Reconnects,
		ThreadRate:   SpreadOf(rates),
		Connect:      connectTime(all),
	}
	if elapsed > 0 {
		res.RequestsPerS = float64(all.Requests) / elapsed.Seconds()
	}
	for code, n := range all.Status {
		res.Status[strconv.Itoa(code)] = n
	}
	res.Errors, res.ErrorCauses = errorCounts(all)
	if all.Requests > 0 {
		res.Latency = summarizeWithin(all.Latency, float64(all.MinNs)/1e3, float64(all.MaxNs)/1e3)
	}
	var err error
	if res.LatencyHistogram, err = EncodeHistogram(all.Latency); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	if res.Targets, err = targetResults(rec.Targets()); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	openLoop(&res, all)
	if all.Dropped > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			droppedFormat+" of %v were left out of the percentiles", all.Dropped, time.Duration(record.HistogramMax)))
	}
	return res
}

// droppedFormat begins the warning about latencies left out of the
// histogram, which Validate reads back.
const droppedFormat = "%d latencies beyond the histogram's range"

// openLoop fills the open-loop figures of res, if t kept them.
func openLoop(res *Result, t record.Totals) {
	if t.Uncorrected == nil || t.Requests == 0 {
		return
	}
	res.LatencyUncorrected = Summarize(t.Uncorrected)
	var err error
	if res.LatencyUncorrectedHistogram, err = EncodeHistogram(t.Uncorrected); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	if lag := Summarize(t.Lag); lag != nil {
		res.ScheduleLag = &ScheduleLag{P50: lag.P50, P99: lag.P99, Max: lag.Max, LateSends: t.LateSends}
	}
	res.AttackS = (t.LastSend - t.FirstSend).Seconds()
	res.WaitS = (t.LastDone - t.LastSend).Seconds()
	if res.AttackS > 0 {
		res.AchievedRate = float64(t.Requests-1) / res.AttackS
	}
}

func errorCounts(t record.Totals) (Errors, map[string]map[string]int64) {
	e := t.Errors
	errs := Errors{e[record.Connect], e[record.Read], e[record.Write], e[record.Timeout], e[record.Status], e[record.Validation]}
	if len(t.Causes) == 0 {
		return errs, nil
	}
	causes := make(map[string]map[string]int64)
	for c, n := range t.Causes {
		class := c.Class.String()
		if causes[class] == nil {
			causes[class] = make(map[string]int64)
		}
		causes[class][c.Text] += n
	}
	return errs, causes
}

func connectTime(t record.Totals) ConnectTime {
	if t.Connects == 0 {
		return ConnectTime{}
	}
	return ConnectTime{
		Count: t.Connects,
		Mean:  float64(t.ConnectSum.Microseconds()) / float64(t.Connects),
		Max:   float64(t.ConnectMax.Nanoseconds()) / 1e3,
	}
}

// SpreadOf summarises samples as wrk's Thread Stats do: mean, sample
// standard deviation, max and the share within one standard deviation.
func SpreadOf(samples []float64) Spread {
	if len(samples) == 0 {
		return Spread{}
	}
	var sum, maxv float64
	for _, v := range samples {
		sum += v
		maxv = max(maxv, v)
	}
	mean := sum / float64(len(samples))
	var sq float64
	for _, v := range samples {
		sq += (v - mean) * (v - mean)
	}
	stdev := 0.0
	if len(samples) > 1 {
		stdev = math.Sqrt(sq / float64(len(samples)-1))
	}
	within := 0
	for _, v := range samples {
		if v >= mean-stdev && v <= mean+stdev {
			within++
		}
	}
	return Spread{
		Mean:           mean,
		Stdev:          stdev,
		Max:            maxv,
		WithinStdevPct: 100 * float64(within) / float64(len(samples)),
		Samples:        len(samples),
	}
}
