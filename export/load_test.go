package export

import (
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// latencies packs latencies as a Tick's second holds them.
func latencies(ns ...int64) *hdrhistogram.PackedHistogram {
	h := record.NewHistogram()
	for _, v := range ns {
		h.RecordValue(v) //nolint:errcheck // in range
	}
	return packed(h)
}

// ticks makes a load's ticks: n seconds of 2xx responses, each second's
// latencies one per response, the last tick final.
func ticks(from time.Time, perSecond []int64) []engine.Tick {
	var out []engine.Tick
	var total engine.Totals
	for i, n := range perSecond {
		total.Responses[2] += n
		total.Errors.Timeout++
		total.BytesRead += 100 * n
		lat := make([]int64, n)
		for k := range lat {
			lat[k] = int64(k+1) * 1000
		}
		out = append(out, engine.Tick{From: from, At: from.Add(time.Duration(i+1) * time.Second), Latency: latencies(lat...),
			Totals: total, Connections: 4, Final: i == len(perSecond)-1})
	}
	return out
}

// value finds a series' point in a snapshot.
func value(t *testing.T, s *Snapshot, name string, labels ...Label) Point {
	t.Helper()
	for i, se := range s.Series {
		if se.Name != name {
			continue
		}
		match := true
		for _, want := range labels {
			found := false
			for _, l := range se.Labels {
				found = found || l == want
			}
			match = match && found
		}
		if match {
			return s.Points[i]
		}
	}
	t.Fatalf("no series %s %v at %v", name, labels, s.At)
	return Point{}
}

// TestLoadPushesFromZeroToTheTotals: a load's first point is every
// counter at 0 at the start of the measurement, then one a second, the
// last one with the totals; the histogram's count is the responses'.
func TestLoadPushesFromZeroToTheTotals(t *testing.T) {
	f := &fakeSink{}
	e := New(Options{Sinks: []Sink{f}, Labels: []Label{{"run", "r1"}}})
	l := e.Load(LoadOptions{})
	from := time.UnixMilli(1_700_000_000_000)
	for _, tk := range ticks(from, []int64{3, 5, 2}) {
		l.Observe(tk)
	}
	e.Close(time.Second)
	if len(f.pushed) != 4 || !f.pushed[0].At.Equal(from) || !f.pushed[3].Final {
		t.Fatalf("%d snapshots, first at %v", len(f.pushed), f.pushed[0].At)
	}
	zero, last := f.pushed[0], f.pushed[3]
	if p := value(t, zero, MetricRequests, Label{"status_class", "2xx"}); p.Value != 0 {
		t.Errorf("first point %v", p.Value)
	}
	if p := value(t, zero, MetricLatency); p.Hist == nil || p.Hist.Count != 0 {
		t.Errorf("first histogram %+v", p.Hist)
	}
	for _, s := range zero.Series {
		if s.Kind == Gauge {
			t.Errorf("a gauge in the first point: %s", s.Name)
		}
	}
	if p := value(t, last, MetricRequests, Label{"status_class", "2xx"}, Label{"run", "r1"}); p.Value != 10 {
		t.Errorf("requests %v, want 10", p.Value)
	}
	if p := value(t, last, MetricErrors, Label{"class", "timeout"}); p.Value != 3 {
		t.Errorf("timeouts %v, want 3", p.Value)
	}
	if p := value(t, last, MetricLatency); p.Hist.Count != 10 {
		t.Errorf("latency count %d, want 10", p.Hist.Count)
	}
	if p := value(t, last, MetricConnections); p.Value != 4 {
		t.Errorf("connections %v", p.Value)
	}
}

// TestLoadsUnderTheSameLabelsAddUp: the runs of --runs (and a capacity
// step measured on) push one series: the second load goes on from the
// first's figures, with no point at 0 between, and later in time.
func TestLoadsUnderTheSameLabelsAddUp(t *testing.T) {
	f := &fakeSink{}
	e := New(Options{Sinks: []Sink{f}})
	from := time.UnixMilli(1_700_000_000_000)
	first := e.Load(LoadOptions{})
	for _, tk := range ticks(from, []int64{3, 5}) {
		first.Observe(tk)
	}
	second := e.Load(LoadOptions{})
	for _, tk := range ticks(from.Add(time.Minute), []int64{4}) {
		second.Observe(tk)
	}
	other := e.Load(LoadOptions{Labels: []Label{{"step", "2"}}})
	for _, tk := range ticks(from.Add(2*time.Minute), []int64{1}) {
		other.Observe(tk)
	}
	e.Close(time.Second)
	// 0, 1 s, 2 s; then 1 s of the second load (no 0); then the step's 0 and 1 s
	if len(f.pushed) != 6 {
		t.Fatalf("%d snapshots, want 6", len(f.pushed))
	}
	if p := value(t, f.pushed[3], MetricRequests, Label{"status_class", "2xx"}); p.Value != 12 {
		t.Errorf("after the second load: %v requests, want 3 + 5 + 4", p.Value)
	}
	if p := value(t, f.pushed[3], MetricLatency); p.Hist.Count != 12 {
		t.Errorf("latency count %d, want 12", p.Hist.Count)
	}
	if p := value(t, f.pushed[5], MetricRequests, Label{"status_class", "2xx"}, Label{"step", "2"}); p.Value != 1 {
		t.Errorf("another label set starts anew: %v", p.Value)
	}
}

// TestLoadInterval: with a 3 s interval, every third second is pushed,
// and the end always.
func TestLoadInterval(t *testing.T) {
	f := &fakeSink{}
	e := New(Options{Sinks: []Sink{f}, Interval: 3 * time.Second})
	l := e.Load(LoadOptions{})
	from := time.UnixMilli(1_700_000_000_000)
	for _, tk := range ticks(from, []int64{1, 1, 1, 1, 1, 1, 1}) {
		l.Observe(tk)
	}
	e.Close(time.Second)
	var at []time.Duration
	for _, s := range f.pushed {
		at = append(at, s.At.Sub(from))
	}
	if want := []time.Duration{0, 3 * time.Second, 6 * time.Second, 7 * time.Second}; len(at) != len(want) || at[1] != want[1] || at[2] != want[2] || at[3] != want[3] {
		t.Errorf("pushed at %v, want %v", at, want)
	}
}

// TestLoadTimesIncrease: the last tick, less than a millisecond after the
// one before, still gets a later millisecond (Prometheus refuses two
// points of a series at one).
func TestLoadTimesIncrease(t *testing.T) {
	f := &fakeSink{}
	e := New(Options{Sinks: []Sink{f}})
	l := e.Load(LoadOptions{})
	from := time.UnixMilli(1_700_000_000_000)
	tks := ticks(from, []int64{1, 1})
	tks[1].At = tks[0].At.Add(300 * time.Microsecond)
	for _, tk := range tks {
		l.Observe(tk)
	}
	e.Close(time.Second)
	for i := 1; i < len(f.pushed); i++ {
		if f.pushed[i].At.UnixMilli() <= f.pushed[i-1].At.UnixMilli() {
			t.Errorf("snapshot %d at %d ms, after %d", i, f.pushed[i].At.UnixMilli(), f.pushed[i-1].At.UnixMilli())
		}
	}
}

// TestLoadOpenLoopAndServers: the open-loop series, the rows of
// targets, and a watched server (absent until it is sampled).
func TestLoadOpenLoopAndServers(t *testing.T) {
	f := &fakeSink{}
	e := New(Options{Sinks: []Sink{f}})
	sampled := false
	srv := Server{PID: 42, Sample: func() (int64, float64, bool) { return 1 << 20, 1.5, sampled }}
	l := e.Load(LoadOptions{OpenLoop: true, Rows: []string{"home", "2"}, Servers: []Server{srv}})
	from := time.UnixMilli(1_700_000_000_000)
	tks := ticks(from, []int64{100, 100})
	for i := range tks {
		tks[i].TargetRate = 100
		tks[i].Lag = latencies(5000, 7000)
		tks[i].Rows = []engine.Totals{{Errors: stats.Errors{Read: 1}}, {Responses: [engine.StatusClasses]int64{0, 0, 7}}}
	}
	l.Observe(tks[0])
	sampled = true
	l.Observe(tks[1])
	e.Close(time.Second)
	first, last := f.pushed[1], f.pushed[2]
	if p := value(t, first, MetricServerRSS, Label{"pid", "42"}); !p.Absent {
		t.Errorf("RSS before a sample: %+v", p)
	}
	if p := value(t, last, MetricServerRSS, Label{"pid", "42"}); p.Absent || p.Value != 1<<20 {
		t.Errorf("RSS %+v", p)
	}
	if p := value(t, last, MetricServerCPU, Label{"pid", "42"}); p.Value != 1.5 {
		t.Errorf("CPU %+v", p)
	}
	if p := value(t, last, MetricTargetRate); p.Value != 100 {
		t.Errorf("target rate %v", p.Value)
	}
	if p := value(t, last, MetricAchievedRate); p.Value != 101 { // 100 responses and a timeout a second
		t.Errorf("achieved rate %v", p.Value)
	}
	if p := value(t, last, MetricLag); p.Hist.Count != 2 {
		t.Errorf("lag %+v", p.Hist)
	}
	if p := value(t, last, MetricTargetRequests, Label{"target", "2"}, Label{"status_class", "2xx"}); p.Value != 7 {
		t.Errorf("row 2's 2xx %v", p.Value)
	}
	if p := value(t, last, MetricTargetErrors, Label{"target", "home"}, Label{"class", "read"}); p.Value != 1 {
		t.Errorf("row home's read errors %v", p.Value)
	}
}

func TestParseLabel(t *testing.T) {
	for _, tc := range []struct {
		in, err string
	}{
		{"test=checkout", ""}, {"run=nightly-7", ""}, {"a=b=c", ""},
		{"test", "is not a label name=value"}, {"test=", "is not a label name=value"}, {"1x=y", "is not a label name"},
		{"a-b=y", "is not a label name"}, {"__name__=y", "Prometheus' own"}, {"shard=1", "pummel sets itself"},
	} {
		_, err := ParseLabel(tc.in)
		if (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ParseLabel(%q) = %v, want %q", tc.in, err, tc.err)
		}
	}
}

// TestLoadAchievedRateNeedsTime: the run's end, a few milliseconds after
// its last second, pushes no achieved rate over those milliseconds.
func TestLoadAchievedRateNeedsTime(t *testing.T) {
	f := &fakeSink{}
	e := New(Options{Sinks: []Sink{f}})
	l := e.Load(LoadOptions{OpenLoop: true})
	from := time.UnixMilli(1_700_000_000_000)
	tks := ticks(from, []int64{100, 3})
	tks[1].At = tks[0].At.Add(5 * time.Millisecond)
	for _, tk := range tks {
		l.Observe(tk)
	}
	e.Close(time.Second)
	if p := value(t, f.pushed[1], MetricAchievedRate); p.Absent || p.Value != 101 {
		t.Errorf("first second's rate %+v", p)
	}
	if p := value(t, f.pushed[2], MetricAchievedRate); !p.Absent {
		t.Errorf("a rate over 5 ms: %+v", p)
	}
}
