package engine

import (
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// timelineState builds the per-second timeline from the workers' interval
// histograms and cumulative tallies.
type timelineState struct {
	from      time.Time // the start of the measurement
	next      time.Time // when the current second ends
	at        time.Time // when the latest second taken ended
	h         *hdrhistogram.Histogram
	packer    record.Packer
	prevErrs  [record.NumErrorClasses]int64
	prevBytes int64
}

func (t *timelineState) init() { t.h = record.NewHistogram() }

// take returns the second that ended by now (or, when final, what is left
// of the current one), with its latency histogram packed and not yet
// encoded (see samples.encodedTimeline); ok is false when there is none.
//
// Before the measurement starts it takes nothing: the warm-up enters
// neither the workers' intervals nor their tallies (Worker.addBatch), so
// whatever they hold was measured. A tick that fires just before the
// measurement begins and drains just after it would otherwise throw
// measured responses away, and the timeline would fall short of the
// totals (TestTimelineKeepsWhatArrivesAsTheMeasurementBegins).
func (t *timelineState) take(workers []*Worker, now time.Time, final bool, from time.Time) (sec stats.Second, h *hdrhistogram.PackedHistogram, ok bool) {
	if from.IsZero() || now.Before(from) {
		return sec, nil, false
	}
	if t.next.IsZero() { // the measurement has begun
		t.from, t.next = from, from.Add(time.Second)
	}
	if !final && now.Before(t.next) {
		return sec, nil, false
	}
	t.h.Reset()
	var errs [record.NumErrorClasses]int64
	var bytes int64
	for _, w := range workers {
		e, b := w.takeInterval(t.h)
		for i := range errs {
			errs[i] += e[i]
		}
		bytes += b
	}
	var d [record.NumErrorClasses]int64
	for i := range errs {
		d[i] = errs[i] - t.prevErrs[i]
	}
	delta := stats.Errors{Connect: d[record.Connect], Read: d[record.Read], Write: d[record.Write], Timeout: d[record.Timeout],
		Status: d[record.Status], Validation: d[record.Validation]}
	bytesDelta := bytes - t.prevBytes
	t.prevErrs, t.prevBytes = errs, bytes
	if final && t.h.TotalCount() == 0 && delta == (stats.Errors{}) {
		return sec, nil, false
	}
	at := t.next
	if final {
		at = now
	}
	t.at = at
	for !t.next.After(now) {
		t.next = t.next.Add(time.Second)
	}
	sec = stats.SummarizeSecond(at.Sub(t.from).Seconds(), t.h, delta, bytesDelta)
	return sec, t.packer.Pack(t.h), true
}
