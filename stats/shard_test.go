package stats_test

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/internal/statstest"
	"github.com/pummel-dev/pummel/stats/record"
)

func TestCombineShardsReadsLikeOneRun(t *testing.T) {
	a := statstest.Spread(100, 500, time.Microsecond)
	b := statstest.Spread(900, 300, 3*time.Microsecond)
	c := statstest.Spread(5000, 10, time.Millisecond)
	parts := []stats.Result{statstest.Part(t, 2, 4*time.Millisecond, c...), statstest.Part(t, 0, 0, a...), statstest.Part(t, 1, time.Millisecond, b...)}
	got, err := stats.Combine(parts, stats.Parallel)
	if err != nil {
		t.Fatal(err)
	}
	whole := stats.Merge([]*record.Recorder{statstest.Recorded(append(append(a, b...), c...)...)}, time.Second, nil)
	w := *whole.Latency
	w.WithinStdevPct = got.Latency.WithinStdevPct // not statstest.Part of the claim
	if *got.Latency != w || got.Requests != 810 {
		t.Errorf("merged %d requests, latency\n%+v\nwant 810, as one run of everything,\n%+v", got.Requests, *got.Latency, w)
	}
	if got.Shard != nil || got.Config.Threads != 6 || got.Client.CPUs != 6 || got.Config.Connections != 30 {
		t.Errorf("shard %v, threads %d, CPUs %d, connections %d; want the whole load: no shard, 6 threads on 6 CPUs, 30 connections",
			got.Shard, got.Config.Threads, got.Client.CPUs, got.Config.Connections)
	}
	if cmd := got.Config.Command; !strings.Contains(cmd, "--shard i/3 ") || got.Config.MergedCommands != nil {
		t.Errorf("command %q, merged commands %q; want one command, with --shard i/3", cmd, got.Config.MergedCommands)
	}
	if got.Start != parts[1].Start || got.StartAt != parts[1].StartAt {
		t.Errorf("start %s (planned %s), want the earliest, %s", got.Start, got.StartAt, parts[1].Start)
	}
	sh := got.Shards
	if sh == nil || sh.Count != 3 || len(sh.Parts) != 3 || sh.Missing != nil || sh.StartSkewS != 0.004 {
		t.Fatalf("shards %+v, want 3 of 3 with a skew of 4ms", sh)
	}
	for i, p := range sh.Parts {
		if p.Index != i || p.Requests != parts[(i+1)%3].Requests {
			t.Errorf("part %d: %+v, want shard %d's figures in index order", i, p, i)
		}
	}
}

func TestCombineShardsRefusesPartsOfOtherLoads(t *testing.T) {
	other := func(change func(*stats.Result)) stats.Result {
		r := statstest.Part(t, 1, 0, time.Millisecond)
		change(&r)
		return r
	}
	later := func(d time.Duration) func(*stats.Result) { return func(r *stats.Result) { plannedLater(t, r, d) } }
	tests := []struct {
		name string
		rs   []stats.Result
		how  stats.Combination
		want string
	}{
		{"one after another", []stats.Result{statstest.Part(t, 0, 0, time.Millisecond)}, stats.Sequential, "--parallel"},
		{"another URL", []stats.Result{statstest.Part(t, 0, 0, time.Millisecond), other(func(r *stats.Result) { r.Config.URL = "http://127.0.0.1:9090/" })}, stats.Parallel, "config.url"},
		{"another method", []stats.Result{statstest.Part(t, 0, 0, time.Millisecond), other(func(r *stats.Result) { r.Config.Method = "POST" })}, stats.Parallel, "config.method"},
		{"another duration", []stats.Result{statstest.Part(t, 0, 0, time.Millisecond), other(func(r *stats.Result) { r.Config.DurationS = 30 })}, stats.Parallel, "config.duration_s"},
		{"another rate", []stats.Result{statstest.Part(t, 0, 0, time.Millisecond), other(func(r *stats.Result) { r.Config.Rates = []float64{100} })}, stats.Parallel, "config.rates"},
		{"another shard count", []stats.Result{statstest.Part(t, 0, 0, time.Millisecond), other(func(r *stats.Result) { r.Shard.Count = 4 })}, stats.Parallel, "different numbers of parts"},
		{"a part twice", []stats.Result{statstest.Part(t, 1, 0, time.Millisecond), statstest.Part(t, 1, 0, time.Millisecond)}, stats.Parallel, "shard 1/3 is given twice (results 1 and 2)"},
		{"planned a day apart", []stats.Result{statstest.Part(t, 0, 0, time.Millisecond), other(later(24 * time.Hour))}, stats.Parallel,
			"shard 0 and shard 1 were planned to start 24h0m0s apart (start_at: 2026-12-01T15:00:00Z, 2026-12-02T15:00:00Z)"},
		{"planned 1.5s apart", []stats.Result{other(later(1500 * time.Millisecond)), statstest.Part(t, 0, 0, time.Millisecond), statstest.Part(t, 2, 0, time.Millisecond)}, stats.Parallel,
			"shard 0 and shard 1 were planned to start 1.5s apart"},
		{"another request of the same length", []stats.Result{withDigest(statstest.Part(t, 0, 0, time.Millisecond), "aa"), withDigest(other(func(*stats.Result) {}), "bb")}, stats.Parallel,
			"shard 0 and shard 1 sent different requests (config.request_sha256 differs)"},
		{"a result that is no part", []stats.Result{statstest.Part(t, 0, 0, time.Millisecond), other(func(r *stats.Result) { r.Shard = nil })}, stats.Parallel, "result 2 is not a part"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := stats.Combine(tt.rs, tt.how)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want one naming %q", err, tt.want)
			}
		})
	}
}

// withDigest is r with the request digest d.
func withDigest(r stats.Result, d string) stats.Result {
	r.Config.RequestSHA256 = d
	return r
}

// TestCombineShardsMergesOneRequest: parts with one request digest merge,
// even when their scripts sent each part another path (wrk.shard), and so
// do parts of which one or both record none (an older pummel).
func TestCombineShardsMergesOneRequest(t *testing.T) {
	tests := []struct {
		name, a, b string
		path       string // part 1's URL path, when not part 0's
	}{
		{"one digest", "aa", "aa", ""},
		{"one digest, a path per part", "aa", "aa", "/part/1"},
		{"one part without", "aa", "", ""},
		{"neither", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := []stats.Result{withDigest(statstest.Part(t, 0, 0, time.Millisecond), tt.a), withDigest(statstest.Part(t, 1, 0, time.Millisecond), tt.b)}
			if tt.path != "" {
				rs[1].Config.URL += tt.path
			}
			if _, err := stats.Combine(rs, stats.Parallel); err != nil {
				t.Errorf("digests %q and %q: %v", tt.a, tt.b, err)
			}
		})
	}
}

// plannedLater moves r's planned and actual starts d later.
func plannedLater(t *testing.T, r *stats.Result, d time.Duration) {
	t.Helper()
	for _, s := range []*string{&r.StartAt, &r.Start} {
		at, err := time.Parse(time.RFC3339Nano, *s)
		if err != nil {
			t.Fatal(err)
		}
		*s = at.Add(d).Format(time.RFC3339Nano)
	}
}

// TestCombineShardsTakesPlannedStartsASecondApart: parts whose planned
// starts are within the engine's start skew of one another, or that have
// none, merge.
func TestCombineShardsTakesPlannedStartsASecondApart(t *testing.T) {
	tests := []struct {
		name   string
		change func(*stats.Result)
	}{
		{"the same planned start", func(*stats.Result) {}},
		{"planned 1s apart", func(r *stats.Result) { plannedLater(t, r, time.Second) }},
		{"no planned start", func(r *stats.Result) { r.StartAt = "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := statstest.Part(t, 1, 0, time.Millisecond)
			tt.change(&p)
			got, err := stats.Combine([]stats.Result{statstest.Part(t, 0, 0, time.Millisecond), p}, stats.Parallel)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Shards.Parts) != 2 {
				t.Errorf("shards %+v, want both parts merged", got.Shards)
			}
		})
	}
}

// TestCombineShardsSaysWhyStagesAreNotMerged: parts that ran different
// numbers of rate stages have none merged, and the result says so
// rather than silently having no stages.
func TestCombineShardsSaysWhyStagesAreNotMerged(t *testing.T) {
	tests := []struct {
		name     string
		stages   []int // per part, shard 0 first
		merged   int
		warnings []string
	}{
		{"no stages", []int{0, 0, 0}, 0, nil},
		{"as many stages", []int{2, 2, 2}, 2, nil},
		{"one part ran fewer", []int{2, 1, 2}, 0, []string{"shard 1 ran 1 of 2 stages: stages not merged"}},
		{"two parts ran fewer", []int{0, 3, 2}, 0, []string{"shard 0 ran 0 of 3 stages: stages not merged", "shard 2 ran 2 of 3 stages: stages not merged"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var parts []stats.Result
			for i, n := range tt.stages {
				p := statstest.Part(t, i, 0, time.Millisecond, time.Millisecond)
				for range n {
					p.Stages = append(p.Stages, stats.Merge([]*record.Recorder{statstest.Recorded(time.Millisecond)}, time.Second, nil))
				}
				parts = append(parts, p)
			}
			got, err := stats.Combine(parts, stats.Parallel)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Stages) != tt.merged || !slices.Equal(got.Warnings, tt.warnings) {
				t.Errorf("%d stages, warnings %q; want %d, %q", len(got.Stages), got.Warnings, tt.merged, tt.warnings)
			}
			for k, st := range got.Stages {
				if st.Requests != 3 {
					t.Errorf("stage %d: %d requests, want the parts' 3", k+1, st.Requests)
				}
			}
		})
	}
}

func TestCombineShardsNamesTheMissingParts(t *testing.T) {
	got, err := stats.Combine([]stats.Result{statstest.Part(t, 1, 0, time.Millisecond)}, stats.Parallel)
	if err != nil {
		t.Fatal(err)
	}
	if m := got.Shards.Missing; len(m) != 2 || m[0] != 0 || m[1] != 2 {
		t.Errorf("missing %v, want [0 2]", m)
	}
	if len(got.Warnings) == 0 || !strings.Contains(got.Warnings[0], "2 shards of 3 missing (0, 2)") {
		t.Errorf("warnings %q, want the missing shards named first", got.Warnings)
	}
}

func TestCombineShardsSaysEachPartsWarnings(t *testing.T) {
	hot := statstest.Part(t, 1, 0, time.Millisecond)
	hot.Client = stats.ClientUsage{CPUSeconds: 1.9, CPUPercent: 95, CPUs: 2, Saturated: true}
	hot.Warnings = []string{stats.SaturationWarning(hot.Client)}
	got, err := stats.Combine([]stats.Result{statstest.Part(t, 0, 0, time.Millisecond), hot, statstest.Part(t, 2, 0, time.Millisecond)}, stats.Parallel)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Warnings) != 1 || !strings.HasPrefix(got.Warnings[0], "shard 1: pummel used 95%") {
		t.Errorf("warnings %q, want shard 1's saturation, named", got.Warnings)
	}
}

func TestCombineShardsAddsUpTheOpenLoopShares(t *testing.T) {
	var parts []stats.Result
	for i := range 3 {
		open := record.NewOpen()
		var b record.Batch
		b.Add(record.Outcome{Latency: 2 * time.Millisecond, Uncorrected: time.Millisecond, Status: 200})
		open.AddBatch(&b)
		p := stats.Merge([]*record.Recorder{open}, time.Second, nil)
		p.TargetRate, p.AchievedRate, p.ScheduleLag = 100, 99, &stats.ScheduleLag{P99: 300}
		p.Ramp = &stats.Ramp{From: 50, To: 150} // a ramp's share: its mean is the target
		p.AttackS, p.WaitS = 0.99, 0.01*float64(i+1)
		p.Start = time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC).Add(time.Duration(i) * 10 * time.Millisecond).Format(time.RFC3339Nano)
		p.Shard, p.Config = &stats.Shard{Index: i, Count: 3}, stats.Config{URL: "http://127.0.0.1:8080/", Rates: []float64{300}}
		parts = append(parts, p)
	}
	got, err := stats.Combine(parts, stats.Parallel)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.AttackS-1.01) > 1e-9 || math.Abs(got.WaitS-0.03) > 1e-9 {
		t.Errorf("attack %gs, wait %gs; want the whole schedule's: 1.01s from the first start to the last send, 0.03s to the last response", got.AttackS, got.WaitS)
	}
	if got.Ramp == nil || *got.Ramp != (stats.Ramp{From: 150, To: 450}) || parts[0].Ramp.From != 50 {
		t.Errorf("ramp %v, part 0's %v; want the whole 150..450 and the part's untouched", got.Ramp, parts[0].Ramp)
	}
	if got.TargetRate != 300 || got.AchievedRate != 297 || got.LatencyUncorrected == nil || *got.Shards.Parts[2].ScheduleLagP99 != 300 {
		t.Errorf("target %g, achieved %g, uncorrected %v, part 2 %+v; want the whole schedule's 300/s",
			got.TargetRate, got.AchievedRate, got.LatencyUncorrected, got.Shards.Parts[2])
	}
}
