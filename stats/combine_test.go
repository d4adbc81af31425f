package stats_test

import (
	"math"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/internal/statstest"
	"github.com/pummel-dev/pummel/stats/record"
)

func TestCombineEqualsOneRunOfEverything(t *testing.T) {
	a := statstest.Recorded(statstest.Spread(100, 1000, time.Microsecond)...)
	b := statstest.Recorded(statstest.Spread(5000, 300, 37*time.Microsecond)...)
	c := statstest.Recorded(statstest.Spread(20, 10, time.Millisecond)...)
	ra := stats.Merge([]*record.Recorder{a}, time.Second, []float64{1000})
	rb := stats.Merge([]*record.Recorder{b}, 2*time.Second, []float64{150, 150})
	rc := stats.Merge([]*record.Recorder{c}, time.Second, []float64{10})
	whole := stats.Merge([]*record.Recorder{statstest.Recorded(statstest.Spread(100, 1000, time.Microsecond)...), statstest.Recorded(statstest.Spread(5000, 300, 37*time.Microsecond)...),
		statstest.Recorded(statstest.Spread(20, 10, time.Millisecond)...)}, 4*time.Second, nil)

	got, err := stats.Combine([]stats.Result{ra, rb, rc}, stats.Sequential)
	if err != nil {
		t.Fatal(err)
	}
	w := *whole.Latency
	w.WithinStdevPct = got.Latency.WithinStdevPct // not statstest.Part of the claim
	if *got.Latency != w {
		t.Errorf("combined latency\n%+v\nwant, as one run of everything,\n%+v", *got.Latency, w)
	}
	if got.Requests != 1310 || got.Status["200"] != 1310 || got.DurationS != 4 || got.RequestsPerS != 1310.0/4 {
		t.Errorf("requests %d, status %v, duration %v, rate %v", got.Requests, got.Status, got.DurationS, got.RequestsPerS)
	}
	par, err := stats.Combine([]stats.Result{ra, rb, rc}, stats.Parallel)
	if err != nil || par.DurationS != 2 || par.RequestsPerS != ra.RequestsPerS+rb.RequestsPerS+rc.RequestsPerS {
		t.Errorf("parallel: duration %v, rate %v, err %v", par.DurationS, par.RequestsPerS, err)
	}
}

func TestCombineRefusesWhatItCannotMergeExactly(t *testing.T) {
	r := stats.Merge([]*record.Recorder{statstest.Recorded(time.Millisecond)}, time.Second, nil)
	noHist := r
	noHist.LatencyHistogram = ""
	bad := r
	bad.LatencyHistogram = "not base64!"
	for name, rs := range map[string][]stats.Result{"none": nil, "histogram missing": {r, noHist}, "histogram corrupt": {r, bad}} {
		if _, err := stats.Combine(rs, stats.Sequential); err == nil {
			t.Errorf("%s: combined without an error", name)
		}
	}
}

func TestCombineTimelines(t *testing.T) {
	second := func(at float64, ls ...time.Duration) stats.Second {
		h := record.NewHistogram()
		for _, l := range ls {
			h.RecordValue(int64(l))
		}
		s, err := stats.NewSecond(at, h, stats.Errors{Read: 1}, 100)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a := stats.Merge([]*record.Recorder{statstest.Recorded(time.Millisecond, 2*time.Millisecond)}, 2*time.Second, nil)
	a.Timeline = []stats.Second{second(1, time.Millisecond), second(2, 2*time.Millisecond)}
	b := stats.Merge([]*record.Recorder{statstest.Recorded(3 * time.Millisecond)}, time.Second, nil)
	b.Timeline = []stats.Second{second(1, 3*time.Millisecond)}

	par, err := stats.Combine([]stats.Result{a, b}, stats.Parallel)
	if err != nil {
		t.Fatal(err)
	}
	both := second(1, time.Millisecond, 3*time.Millisecond)
	if len(par.Timeline) != 2 || par.Timeline[0].Requests != 2 || par.Timeline[0].Latency != both.Latency || par.Timeline[0].Errors.Read != 2 {
		t.Errorf("side by side, second 1 = %+v, want the merge %+v", par.Timeline[0], both)
	}
	seq, err := stats.Combine([]stats.Result{a, b}, stats.Sequential)
	if err != nil || len(seq.Timeline) != 3 || seq.Timeline[2].At != 3 {
		t.Errorf("one after another: %+v (%v)", seq.Timeline, err)
	}
}

func TestCombineOpenAndClosedLoop(t *testing.T) {
	open := record.NewOpen()
	var b record.Batch
	b.Add(record.Outcome{Latency: 2 * time.Millisecond, Uncorrected: time.Millisecond, Status: 200})
	open.AddBatch(&b)
	o := stats.Merge([]*record.Recorder{open}, time.Second, nil)
	c := stats.Merge([]*record.Recorder{statstest.Recorded(3 * time.Millisecond)}, time.Second, nil)
	for _, rs := range [][]stats.Result{{o, c}, {c, o}} {
		got, err := stats.Combine(rs, stats.Sequential)
		if err != nil || got.Requests != 2 || got.LatencyUncorrected != nil {
			t.Errorf("combined %d requests, uncorrected %v, err %v", got.Requests, got.LatencyUncorrected, err)
		}
	}
	o.TargetRate = 100
	got, err := stats.Combine([]stats.Result{o, o}, stats.Sequential)
	if err != nil || got.LatencyUncorrected == nil || got.LatencyUncorrected.Max < 999 || got.TargetRate != 0 {
		t.Errorf("two open-loop results: %+v, %v", got.LatencyUncorrected, err)
	}
}

func TestCombineWarnsOnceAboutASaturatedClient(t *testing.T) {
	r := stats.Merge([]*record.Recorder{statstest.Recorded(time.Millisecond)}, time.Second, nil)
	r.Client = stats.ClientUsage{CPUSeconds: 0.95, CPUs: 1}
	r.Warnings = []string{stats.SaturationWarning(stats.ClientUsage{CPUPercent: 95, CPUs: 1}), "other"}
	r.Server = []stats.ServerUsage{{PID: 7}}
	got, err := stats.Combine([]stats.Result{r, r, r}, stats.Sequential)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Client.CPUPercent-95) > 1e-9 || !got.Client.Saturated || len(got.Warnings) != 2 || got.Server != nil {
		t.Errorf("client %+v, warnings %q, server %v: want 95%%, one saturation warning, no merged server", got.Client, got.Warnings, got.Server)
	}
}

func TestCombineComputesNoCPUShareOverTooShortATime(t *testing.T) {
	r := stats.Merge([]*record.Recorder{statstest.Recorded(time.Millisecond)}, 50*time.Millisecond, nil)
	r.Client = stats.ClientUsage{CPUSeconds: 0.2, CPUs: 1} // 400%: the noise of a short span
	got, err := stats.Combine([]stats.Result{r, r}, stats.Sequential)
	if err != nil {
		t.Fatal(err)
	}
	if got.Client.CPUPercent != 0 || got.Client.Saturated || len(got.Warnings) != 0 {
		t.Errorf("client %+v, warnings %q: want no share and no warning over 0.1s", got.Client, got.Warnings)
	}
	if s := got.Client.Summary(); s != "0.40s on 1 CPU(s)" {
		t.Errorf("summary %q", s)
	}
}

func TestCombineKeepsASingleResultWhole(t *testing.T) {
	r := stats.Merge([]*record.Recorder{statstest.Recorded(time.Millisecond)}, time.Second, nil)
	r.Stages = []stats.Result{{TargetRate: 10}}
	r.Server = []stats.ServerUsage{{PID: 7}}
	r.TargetRate = 10
	got, err := stats.Combine([]stats.Result{r}, stats.Sequential)
	if err != nil || len(got.Stages) != 1 || len(got.Server) != 1 || got.TargetRate != 10 {
		t.Errorf("combined one result: stages %v, server %v, target %v, err %v", got.Stages, got.Server, got.TargetRate, err)
	}
}

func TestCombineDropsACapacitySearchsAnswer(t *testing.T) {
	rate := 100.0
	r := statstest.Clean(t)
	r.Capacity, r.Steps, r.StepResult = &stats.Capacity{Rate: &rate}, []stats.Result{r}, &stats.StepResult{Verdict: stats.VerdictPass}
	got, err := stats.Combine([]stats.Result{r, r}, stats.Sequential)
	if err != nil {
		t.Fatal(err)
	}
	if got.Capacity != nil || got.Steps != nil || got.StepResult != nil {
		t.Errorf("merged result keeps the first's search: %+v %v %+v", got.Capacity, len(got.Steps), got.StepResult)
	}
	if one, _ := stats.Combine([]stats.Result{r}, stats.Sequential); one.Capacity == nil || len(one.Steps) != 1 {
		t.Error("a single search is not kept whole")
	}
}

// TestCombineExports: the parts of a sharded load each say what they
// pushed; merged, each sink's counts add up, and the run they share stays.
func TestCombineExports(t *testing.T) {
	part := func(pushed, dropped int64, short bool) stats.Result {
		r := stats.Merge([]*record.Recorder{statstest.Recorded(statstest.Spread(100, 10, time.Microsecond)...)}, time.Second, nil)
		r.Export = &stats.Export{Run: "r1", Dropped: dropped, Sinks: []stats.ExportSink{{Sink: "prometheus", URL: "http://p/api/v1/write", Pushed: pushed, Dropped: dropped, Short: short}}}
		return r
	}
	got, err := stats.Combine([]stats.Result{part(10, 0, false), part(8, 2, true), part(10, 0, false)}, stats.Parallel)
	if err != nil {
		t.Fatal(err)
	}
	want := stats.ExportSink{Sink: "prometheus", URL: "http://p/api/v1/write", Pushed: 28, Dropped: 2, Short: true}
	if e := got.Export; e == nil || e.Run != "r1" || e.Dropped != 2 || len(e.Sinks) != 1 || e.Sinks[0] != want {
		t.Errorf("export %+v", got.Export)
	}
}
