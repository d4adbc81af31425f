package stats

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// part is part index of a 3-part load of 30 connections, started offset
// after 15:00:00, holding the given latencies.
func part(t *testing.T, index int, offset time.Duration, latencies ...time.Duration) Result {
	t.Helper()
	r := Merge([]*Recorder{recorded(latencies...)}, time.Second, nil)
	r.Shard = &Shard{Index: index, Count: 3}
	planned := time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)
	r.StartAt = planned.Format(time.RFC3339Nano)
	r.Start = planned.Add(offset).Format(time.RFC3339Nano)
	r.Client = ClientUsage{CPUSeconds: 0.5, CPUPercent: 25, CPUs: 2}
	r.Config = RunConfig{URL: "http://127.0.0.1:8080/", Method: "GET", Connections: 30, Threads: 2, DurationS: 1, TimeoutS: 2, KeepAlive: true,
		Command: fmt.Sprintf("pummel -c 30 -d 1s --shard %d/3 --start-at 2026-12-01T15:00:00Z http://127.0.0.1:8080/", index)}
	return r
}

func TestCombineShardsReadsLikeOneRun(t *testing.T) {
	a := spread(100, 500, time.Microsecond)
	b := spread(900, 300, 3*time.Microsecond)
	c := spread(5000, 10, time.Millisecond)
	parts := []Result{part(t, 2, 4*time.Millisecond, c...), part(t, 0, 0, a...), part(t, 1, time.Millisecond, b...)}
	got, err := Combine(parts, Parallel)
	if err != nil {
		t.Fatal(err)
	}
	whole := Merge([]*Recorder{recorded(append(append(a, b...), c...)...)}, time.Second, nil)
	w := *whole.Latency
	w.WithinStdevPct = got.Latency.WithinStdevPct // not part of the claim
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
	other := func(change func(*Result)) Result {
		r := part(t, 1, 0, time.Millisecond)
		change(&r)
		return r
	}
	tests := []struct {
		name string
		rs   []Result
		how  Combination
		want string
	}{
		{"one after another", []Result{part(t, 0, 0, time.Millisecond)}, Sequential, "--parallel"},
		{"another URL", []Result{part(t, 0, 0, time.Millisecond), other(func(r *Result) { r.Config.URL = "http://127.0.0.1:9090/" })}, Parallel, "config.url"},
		{"another method", []Result{part(t, 0, 0, time.Millisecond), other(func(r *Result) { r.Config.Method = "POST" })}, Parallel, "config.method"},
		{"another duration", []Result{part(t, 0, 0, time.Millisecond), other(func(r *Result) { r.Config.DurationS = 30 })}, Parallel, "config.duration_s"},
		{"another rate", []Result{part(t, 0, 0, time.Millisecond), other(func(r *Result) { r.Config.Rates = []float64{100} })}, Parallel, "config.rates"},
		{"another shard count", []Result{part(t, 0, 0, time.Millisecond), other(func(r *Result) { r.Shard.Count = 4 })}, Parallel, "different numbers of parts"},
		{"a part twice", []Result{part(t, 1, 0, time.Millisecond), part(t, 1, 0, time.Millisecond)}, Parallel, "shard 1/3 is given twice (results 1 and 2)"},
		{"a result that is no part", []Result{part(t, 0, 0, time.Millisecond), other(func(r *Result) { r.Shard = nil })}, Parallel, "result 2 is not a part"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Combine(tt.rs, tt.how)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want one naming %q", err, tt.want)
			}
		})
	}
}

func TestCombineShardsNamesTheMissingParts(t *testing.T) {
	got, err := Combine([]Result{part(t, 1, 0, time.Millisecond)}, Parallel)
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
	hot := part(t, 1, 0, time.Millisecond)
	hot.Client = ClientUsage{CPUSeconds: 1.9, CPUPercent: 95, CPUs: 2, Saturated: true}
	hot.Warnings = []string{SaturationWarning(hot.Client)}
	got, err := Combine([]Result{part(t, 0, 0, time.Millisecond), hot, part(t, 2, 0, time.Millisecond)}, Parallel)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Warnings) != 1 || !strings.HasPrefix(got.Warnings[0], "shard 1: pummel used 95%") {
		t.Errorf("warnings %q, want shard 1's saturation, named", got.Warnings)
	}
}

func TestCombineShardsAddsUpTheOpenLoopShares(t *testing.T) {
	var parts []Result
	for i := range 3 {
		open := NewOpenRecorder()
		var b Batch
		b.Add(Outcome{Latency: 2 * time.Millisecond, Uncorrected: time.Millisecond, Status: 200})
		open.AddBatch(&b)
		p := Merge([]*Recorder{open}, time.Second, nil)
		p.TargetRate, p.AchievedRate, p.ScheduleLag = 100, 99, &ScheduleLag{P99: 300}
		p.AttackS, p.WaitS = 0.99, 0.01*float64(i+1)
		p.Start = time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC).Add(time.Duration(i) * 10 * time.Millisecond).Format(time.RFC3339Nano)
		p.Shard, p.Config = &Shard{Index: i, Count: 3}, RunConfig{URL: "http://127.0.0.1:8080/", Rates: []float64{300}}
		parts = append(parts, p)
	}
	got, err := Combine(parts, Parallel)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.AttackS-1.01) > 1e-9 || math.Abs(got.WaitS-0.03) > 1e-9 {
		t.Errorf("attack %gs, wait %gs; want the whole schedule's: 1.01s from the first start to the last send, 0.03s to the last response", got.AttackS, got.WaitS)
	}
	if got.TargetRate != 300 || got.AchievedRate != 297 || got.LatencyUncorrected == nil || *got.Shards.Parts[2].ScheduleLagP99 != 300 {
		t.Errorf("target %g, achieved %g, uncorrected %v, part 2 %+v; want the whole schedule's 300/s",
			got.TargetRate, got.AchievedRate, got.LatencyUncorrected, got.Shards.Parts[2])
	}
}

func TestTimelinesMergeByWallClockSecond(t *testing.T) {
	second := func(at float64, n int) Second {
		h := NewHistogram()
		h.RecordValues(int64(time.Millisecond), int64(n))
		s, err := NewSecond(at, h, Errors{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	at := func(offset time.Duration, seconds ...Second) Result {
		r := Result{Start: time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC).Add(offset).Format(time.RFC3339Nano)}
		r.Timeline = seconds
		return r
	}
	tests := []struct {
		name  string
		later time.Duration
		want  []int64 // requests per merged second
		ats   []float64
	}{
		{"300ms apart: first seconds together", 300 * time.Millisecond, []int64{11, 22}, []float64{1, 2}},
		{"1.3s apart: the later one's first second joins the earlier one's second", 1300 * time.Millisecond, []int64{1, 12, 20}, []float64{1, 2, 2.8}},
		{"3s apart: a second no one measured", 3 * time.Second, []int64{1, 2, 0, 10, 20}, []float64{1, 2, 3, 4, 4.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := []Result{at(tt.later, second(1, 10), second(1.5, 20)), at(0, second(1, 1), second(2, 2))}
			got, err := wallClockTimeline(rs)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%d seconds, want %d: %+v", len(got), len(tt.want), got)
			}
			for i, s := range got {
				if s.Requests != tt.want[i] || s.At != tt.ats[i] {
					t.Errorf("second %d: %d requests at %gs, want %d at %gs", i+1, s.Requests, s.At, tt.want[i], tt.ats[i])
				}
			}
		})
	}
}

func TestValidateRefusesABadShardOrStart(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Result)
		want   string
	}{
		{"index past the count", func(r *Result) { r.Shard = &Shard{Index: 3, Count: 3} }, "shard:"},
		{"negative index", func(r *Result) { r.Shard = &Shard{Index: -1, Count: 3} }, "shard:"},
		{"start not a time", func(r *Result) { r.Start = "at noon" }, "start:"},
		{"planned start not a time", func(r *Result) { r.StartAt = "+30s" }, "start_at:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := part(t, 0, 0, time.Millisecond)
			if err := r.Validate(); err != nil {
				t.Fatalf("a good part: %v", err)
			}
			tt.change(&r)
			if err := r.Validate(); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("err %v, want one naming %q", err, tt.want)
			}
		})
	}
}
