package stats

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/golden"
)

// recorded returns a recorder holding the given latencies (all 200s).
func recorded(latencies ...time.Duration) *Recorder {
	r := NewRecorder()
	var b Batch
	for _, l := range latencies {
		if b.Add(Outcome{Latency: l, Status: 200}) {
			r.AddBatch(&b)
		}
	}
	r.AddBatch(&b)
	return r
}

func spread(from, n int, step time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = time.Duration(from)*time.Microsecond + time.Duration(i)*step
	}
	return out
}

func TestCombineEqualsOneRunOfEverything(t *testing.T) {
	a := recorded(spread(100, 1000, time.Microsecond)...)
	b := recorded(spread(5000, 300, 37*time.Microsecond)...)
	c := recorded(spread(20, 10, time.Millisecond)...)
	ra := Merge([]*Recorder{a}, time.Second, []float64{1000})
	rb := Merge([]*Recorder{b}, 2*time.Second, []float64{150, 150})
	rc := Merge([]*Recorder{c}, time.Second, []float64{10})
	whole := Merge([]*Recorder{recorded(spread(100, 1000, time.Microsecond)...), recorded(spread(5000, 300, 37*time.Microsecond)...),
		recorded(spread(20, 10, time.Millisecond)...)}, 4*time.Second, nil)

	got, err := Combine([]Result{ra, rb, rc}, Sequential)
	if err != nil {
		t.Fatal(err)
	}
	w := *whole.Latency
	w.WithinStdevPct = got.Latency.WithinStdevPct // not part of the claim
	if *got.Latency != w {
		t.Errorf("combined latency\n%+v\nwant, as one run of everything,\n%+v", *got.Latency, w)
	}
	if got.Requests != 1310 || got.Status["200"] != 1310 || got.DurationS != 4 || got.RequestsPerS != 1310.0/4 {
		t.Errorf("requests %d, status %v, duration %v, rate %v", got.Requests, got.Status, got.DurationS, got.RequestsPerS)
	}
	par, err := Combine([]Result{ra, rb, rc}, Parallel)
	if err != nil || par.DurationS != 2 || par.RequestsPerS != ra.RequestsPerS+rb.RequestsPerS+rc.RequestsPerS {
		t.Errorf("parallel: duration %v, rate %v, err %v", par.DurationS, par.RequestsPerS, err)
	}
}

func TestCombineRefusesWhatItCannotMergeExactly(t *testing.T) {
	r := Merge([]*Recorder{recorded(time.Millisecond)}, time.Second, nil)
	noHist := r
	noHist.LatencyHistogram = ""
	bad := r
	bad.LatencyHistogram = "not base64!"
	for name, rs := range map[string][]Result{"none": nil, "histogram missing": {r, noHist}, "histogram corrupt": {r, bad}} {
		if _, err := Combine(rs, Sequential); err == nil {
			t.Errorf("%s: combined without an error", name)
		}
	}
}

func TestComparisonGolden(t *testing.T) {
	base, next := []Result{cleanRun(t)}, []Result{countedRun(), countedRun()}
	var txt, md bytes.Buffer
	if err := WriteComparison(&txt, base, next); err != nil {
		t.Fatal(err)
	}
	if err := WriteComparisonMarkdown(&md, base, next); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "compare.txt.golden", txt.Bytes())
	golden.Check(t, "compare.md.golden", md.Bytes())
}

func TestCombineTimelines(t *testing.T) {
	second := func(at float64, ls ...time.Duration) Second {
		h := NewHistogram()
		for _, l := range ls {
			h.RecordValue(int64(l))
		}
		s, err := NewSecond(at, h, Errors{Read: 1}, 100)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a := Merge([]*Recorder{recorded(time.Millisecond, 2*time.Millisecond)}, 2*time.Second, nil)
	a.Timeline = []Second{second(1, time.Millisecond), second(2, 2*time.Millisecond)}
	b := Merge([]*Recorder{recorded(3 * time.Millisecond)}, time.Second, nil)
	b.Timeline = []Second{second(1, 3*time.Millisecond)}

	par, err := Combine([]Result{a, b}, Parallel)
	if err != nil {
		t.Fatal(err)
	}
	both := second(1, time.Millisecond, 3*time.Millisecond)
	if len(par.Timeline) != 2 || par.Timeline[0].Requests != 2 || par.Timeline[0].Latency != both.Latency || par.Timeline[0].Errors.Read != 2 {
		t.Errorf("side by side, second 1 = %+v, want the merge %+v", par.Timeline[0], both)
	}
	seq, err := Combine([]Result{a, b}, Sequential)
	if err != nil || len(seq.Timeline) != 3 || seq.Timeline[2].At != 3 {
		t.Errorf("one after another: %+v (%v)", seq.Timeline, err)
	}
}

func TestCombineOpenAndClosedLoop(t *testing.T) {
	open := NewOpenRecorder()
	var b Batch
	b.Add(Outcome{Latency: 2 * time.Millisecond, Uncorrected: time.Millisecond, Status: 200})
	open.AddBatch(&b)
	o := Merge([]*Recorder{open}, time.Second, nil)
	c := Merge([]*Recorder{recorded(3 * time.Millisecond)}, time.Second, nil)
	for _, rs := range [][]Result{{o, c}, {c, o}} {
		got, err := Combine(rs, Sequential)
		if err != nil || got.Requests != 2 || got.LatencyUncorrected != nil {
			t.Errorf("combined %d requests, uncorrected %v, err %v", got.Requests, got.LatencyUncorrected, err)
		}
	}
	o.TargetRate = 100
	got, err := Combine([]Result{o, o}, Sequential)
	if err != nil || got.LatencyUncorrected == nil || got.LatencyUncorrected.Max < 999 || got.TargetRate != 0 {
		t.Errorf("two open-loop results: %+v, %v", got.LatencyUncorrected, err)
	}
}

func TestCombineWarnsOnceAboutASaturatedClient(t *testing.T) {
	r := Merge([]*Recorder{recorded(time.Millisecond)}, time.Second, nil)
	r.Client = ClientUsage{CPUSeconds: 0.95, CPUs: 1}
	r.Warnings = []string{SaturationWarning(ClientUsage{CPUPercent: 95, CPUs: 1}), "other"}
	r.Server = []ServerUsage{{PID: 7}}
	got, err := Combine([]Result{r, r, r}, Sequential)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Client.CPUPercent-95) > 1e-9 || !got.Client.Saturated || len(got.Warnings) != 2 || got.Server != nil {
		t.Errorf("client %+v, warnings %q, server %v: want 95%%, one saturation warning, no merged server", got.Client, got.Warnings, got.Server)
	}
}

func TestCombineComputesNoCPUShareOverTooShortATime(t *testing.T) {
	r := Merge([]*Recorder{recorded(time.Millisecond)}, 50*time.Millisecond, nil)
	r.Client = ClientUsage{CPUSeconds: 0.2, CPUs: 1} // 400%: the noise of a short span
	got, err := Combine([]Result{r, r}, Sequential)
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
	r := Merge([]*Recorder{recorded(time.Millisecond)}, time.Second, nil)
	r.Stages = []Result{{TargetRate: 10}}
	r.Server = []ServerUsage{{PID: 7}}
	r.TargetRate = 10
	got, err := Combine([]Result{r}, Sequential)
	if err != nil || len(got.Stages) != 1 || len(got.Server) != 1 || got.TargetRate != 10 {
		t.Errorf("combined one result: stages %v, server %v, target %v, err %v", got.Stages, got.Server, got.TargetRate, err)
	}
}

// TestCombinedHeaderAgreesWithTotals pins that results merged one after
// another are announced as the runs they are, so that the header and the
// totals line tell the same length.
func TestCombinedHeaderAgreesWithTotals(t *testing.T) {
	one := Merge([]*Recorder{recorded(spread(100, 10, time.Microsecond)...)}, time.Second, nil)
	one.Config = RunConfig{URL: "http://h/", Connections: 1, Threads: 1, DurationS: 1}
	got, err := Combine([]Result{one, one}, Sequential)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteText(&b, got, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Running 2s test (2 runs of 1s) @ http://h/\n", "  20 requests in 2.00s"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

func TestMixedLoads(t *testing.T) {
	base := RunConfig{URL: "http://h/", Method: "GET", Connections: 4, Threads: 2, DurationS: 10, KeepAlive: true, Command: "pummel -c 4 http://h/"}
	with := func(change func(c *RunConfig)) Result {
		c := base
		change(&c)
		return Result{Config: c}
	}
	for _, tt := range []struct {
		name  string
		other Result
		want  string // "" when the loads are one
	}{
		{"same load", with(func(*RunConfig) {}), ""},
		{"same load, longer, other threads", with(func(c *RunConfig) { c.DurationS, c.Threads, c.Command = 30, 1, "pummel -t1 -d30 http://h/" }), ""},
		{"pipelining 1 is none", with(func(c *RunConfig) { c.Pipeline = 1 }), ""},
		{"other target", with(func(c *RunConfig) { c.URL = "http://h/x" }), "(url differ)"},
		{"other method and rate", with(func(c *RunConfig) { c.Method, c.Rates = "POST", []float64{100} }), "(method, rates differ)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := MixedLoads([]Result{{Config: base}, tt.other})
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("MixedLoads = %q, want %q", got, tt.want)
			}
		})
	}
	merged := Result{Config: RunConfig{MergedCommands: []string{"pummel a", "pummel b"}}}
	if got := mergedCommands([]Result{merged, {Config: RunConfig{Command: "pummel c"}}}); strings.Join(got, "; ") != "pummel a; pummel b; pummel c" {
		t.Errorf("mergedCommands = %q, want a merged result's own list, then the next command", got)
	}
}
