package stats

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// Merge folds the workers' recorders into one Result. elapsed is the measured
// duration; rates are the per-worker requests/s samples (see Spread). The
// recorders are left untouched.
func Merge(recs []*Recorder, elapsed time.Duration, rates []float64) Result {
	all := NewRecorder()
	for _, r := range recs {
		all.merge(r)
	}
	res := Result{
		Requests:     all.requests,
		DurationS:    elapsed.Seconds(),
		BytesRead:    all.bytesRead,
		BytesWritten: all.bytesWritten,
		Status:       make(map[string]int64, len(all.status)),
		Reconnects:   all.reconnects,
		ThreadRate:   SpreadOf(rates),
		Connect:      all.connectTime(),
	}
	if elapsed > 0 {
		res.RequestsPerS = float64(all.requests) / elapsed.Seconds()
	}
	for code, n := range all.status {
		res.Status[strconv.Itoa(code)] = n
	}
	res.Errors, res.ErrorCauses = all.errorCounts()
	if all.requests > 0 {
		res.Latency = summarizeWithin(all.latency, float64(all.minNs)/1e3, float64(all.maxNs)/1e3)
	}
	var err error
	if res.LatencyHistogram, err = EncodeHistogram(all.latency); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	all.openLoop(&res)
	if all.dropped > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			droppedFormat+" of %v were left out of the percentiles", all.dropped, time.Duration(HistogramMax)))
	}
	return res
}

// droppedFormat begins the warning about latencies left out of the
// histogram, which Validate reads back.
const droppedFormat = "%d latencies beyond the histogram's range"

func (r *Recorder) merge(o *Recorder) {
	r.dropped += o.dropped + r.latency.Merge(o.latency)
	r.minNs = min(r.minNs, o.minNs)
	r.maxNs = max(r.maxNs, o.maxNs)
	r.requests += o.requests
	r.bytesRead += o.bytesRead
	r.bytesWritten += o.bytesWritten
	for code, n := range o.status {
		r.status[code] += n
	}
	for i, n := range o.errors {
		r.errors[i] += n
	}
	for c, n := range o.causes {
		r.causes[c] += n
	}
	if o.uncorrected != nil {
		if r.uncorrected == nil {
			r.uncorrected, r.lag = NewHistogram(), NewHistogram()
		}
		r.dropped += r.uncorrected.Merge(o.uncorrected)
		r.lag.Merge(o.lag)
		r.lateSends += o.lateSends
	}
	if o.anySent {
		if !r.anySent || o.firstSend < r.firstSend {
			r.firstSend, r.anySent = o.firstSend, true
		}
		r.lastSend = max(r.lastSend, o.lastSend)
		r.lastDone = max(r.lastDone, o.lastDone)
	}
	r.reconnects += o.reconnects
	r.connects += o.connects
	r.connectSum += o.connectSum
	r.connectMax = max(r.connectMax, o.connectMax)
}

// openLoop fills the open-loop figures of res, if r kept them.
func (r *Recorder) openLoop(res *Result) {
	if r.uncorrected == nil || r.requests == 0 {
		return
	}
	res.LatencyUncorrected = Summarize(r.uncorrected)
	var err error
	if res.LatencyUncorrectedHistogram, err = EncodeHistogram(r.uncorrected); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	if lag := Summarize(r.lag); lag != nil {
		res.ScheduleLag = &ScheduleLag{P50: lag.P50, P99: lag.P99, Max: lag.Max, LateSends: r.lateSends}
	}
	res.AttackS = (r.lastSend - r.firstSend).Seconds()
	res.WaitS = (r.lastDone - r.lastSend).Seconds()
	if res.AttackS > 0 {
		res.AchievedRate = float64(r.requests-1) / res.AttackS
	}
}

func (r *Recorder) errorCounts() (Errors, map[string]map[string]int64) {
	e := r.errors
	errs := Errors{e[Connect], e[Read], e[Write], e[Timeout], e[Status], e[Validation]}
	if len(r.causes) == 0 {
		return errs, nil
	}
	causes := make(map[string]map[string]int64)
	for c, n := range r.causes {
		class := c.Class.String()
		if causes[class] == nil {
			causes[class] = make(map[string]int64)
		}
		causes[class][c.Text] += n
	}
	return errs, causes
}

func (r *Recorder) connectTime() ConnectTime {
	if r.connects == 0 {
		return ConnectTime{}
	}
	return ConnectTime{
		Count: r.connects,
		Mean:  float64(r.connectSum.Microseconds()) / float64(r.connects),
		Max:   float64(r.connectMax.Nanoseconds()) / 1e3,
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
