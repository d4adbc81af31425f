// Package statstest builds results for the tests of the stats packages:
// recorders holding given latencies, parts of a sharded load, and the
// fixture results every renderer and the JSON schema are pinned on. It is
// for tests only.
package statstest

import (
	"fmt"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// Fixture is a result a renderer is pinned on.
type Fixture struct {
	Name    string
	Result  stats.Result
	Latency bool // the text shows the latency distribution (--latency)
}

// Recorded returns a recorder holding the given latencies (all 200s).
func Recorded(latencies ...time.Duration) *record.Recorder {
	r := record.New()
	var b record.Batch
	for _, l := range latencies {
		if b.Add(record.Outcome{Latency: l, Status: 200}) {
			r.AddBatch(&b)
		}
	}
	r.AddBatch(&b)
	return r
}

// Spread is n latencies from `from` microseconds on, step apart.
func Spread(from, n int, step time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = time.Duration(from)*time.Microsecond + time.Duration(i)*step
	}
	return out
}

// Part is part index of a 3-part load of 30 connections, started offset
// after 15:00:00, holding the given latencies.
func Part(t testing.TB, index int, offset time.Duration, latencies ...time.Duration) stats.Result {
	t.Helper()
	r := stats.Merge([]*record.Recorder{Recorded(latencies...)}, time.Second, nil)
	r.Shard = &stats.Shard{Index: index, Count: 3}
	planned := time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)
	r.StartAt = planned.Format(time.RFC3339Nano)
	r.Start = planned.Add(offset).Format(time.RFC3339Nano)
	r.Client = stats.ClientUsage{CPUSeconds: 0.5, CPUPercent: 25, CPUs: 2}
	r.Config = stats.Config{URL: "http://127.0.0.1:8080/", Method: "GET", Connections: 30, Threads: 2, DurationS: 1, TimeoutS: 2, KeepAlive: true,
		Command: fmt.Sprintf("pummel -c 30 -d 1s --shard %d/3 --start-at 2026-12-01T15:00:00Z http://127.0.0.1:8080/", index)}
	return r
}

// Fixtures are the results every renderer is pinned on, each with
// whether its text shows the latency distribution (--latency).
func Fixtures(t testing.TB) []Fixture {
	return []Fixture{
		{"clean", Clean(t), true},
		{"errors", Failing(), true},
		{"requests", Counted(), false},
		{"empty", Empty(), true},
		{"openloop", OpenLoop(), true},
		{"shard", ShardPart(), false},
		{"sharded", Sharded(t), false},
	}
}

// ShardPart is part 1 of 3 of the counted run's load, started at a
// planned time.
func ShardPart() stats.Result {
	r := Counted()
	r.Server = nil
	r.Shard = &stats.Shard{Index: 1, Count: 3}
	r.StartAt, r.Start = "2026-12-01T15:00:00Z", "2026-12-01T15:00:00.00123Z"
	r.Config.Command = "pummel -k -c 32 -n 40000 --shard 1/3 --start-at 2026-12-01T15:00:00Z http://127.0.0.1:5077/"
	return r
}

// Sharded merges three parts of one load, one of them missing and one
// whose client was saturated.
func Sharded(t testing.TB) stats.Result {
	hot := Part(t, 2, 3*time.Millisecond, Spread(900, 300, 3*time.Microsecond)...)
	hot.Client = stats.ClientUsage{CPUSeconds: 1.9, CPUPercent: 95, CPUs: 2, Saturated: true}
	hot.Warnings = []string{stats.SaturationWarning(hot.Client)}
	r, err := stats.Combine([]stats.Result{Part(t, 0, 0, Spread(100, 500, time.Microsecond)...), hot}, stats.Parallel)
	if err != nil {
		t.Fatal(err)
	}
	r.Environment = Environment()
	return r
}

// Clean is a 10 s closed-loop run whose latency figures and histogram
// come from a real HdrHistogram: a hump around 600us and a tail to 11.5ms.
func Clean(t testing.TB) stats.Result {
	h := record.NewHistogram()
	for i := range 100 {
		h.RecordValues(int64(300_000+i*6_000), int64(1000-9*i))
	}
	for i := range 20 {
		h.RecordValues(int64(2_000_000+i*500_000), 3)
	}
	encoded, err := stats.EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	n := h.TotalCount()
	return stats.Result{
		Requests: n, DurationS: 10.0021, RequestsPerS: float64(n) / 10.0021,
		BytesRead: n * 155, BytesWritten: n * 40,
		Status:           map[string]int64{"200": n},
		Latency:          stats.Summarize(h),
		LatencyHistogram: encoded,
		ThreadRate:       stats.SpreadOf([]float64{2710, 2790, 2805, 2760, 2650, 2790, 2801, 2744}),
		Connect:          stats.ConnectTime{Count: 64, Mean: 85.5, Max: 210.25},
		Client:           stats.ClientUsage{CPUSeconds: 9.5, CPUPercent: 47.5, CPUs: 2},
		Config: stats.Config{URL: "http://127.0.0.1:8080/", Method: "GET", Connections: 64, Threads: 2,
			RequestSHA256: "0f3a5c2b7d9e4f6a8b1c3d5e7f9a0b2c4d6e8f0a1b3c5d7e9f1a2b4c6d8e0f1a",
			DurationS:     10, TimeoutS: 2, KeepAlive: true,
			Command: "pummel -t2 -c64 -d10s --latency http://127.0.0.1:8080/"},
		Environment: Environment(),
	}
}

// Failing has every kind of trouble: socket errors, non-2xx responses,
// failed checks, causes, reconnects, warnings, an interruption and a
// watched server.
func Failing() stats.Result {
	return stats.Result{
		Requests: 8123, DurationS: 4.5, RequestsPerS: 8123 / 4.5, BytesRead: 1_234_567, BytesWritten: 456_789,
		Status: map[string]int64{"200": 8000, "404": 3, "503": 100, "201": 20},
		Errors: stats.Errors{Connect: 2, Read: 4, Timeout: 1, Status: 103, Validation: 5},
		ErrorCauses: map[string]map[string]int64{
			"read":       {"reset": 3, "EOF before response": 1},
			"connect":    {"refused": 2},
			"timeout":    {"no response within 2s": 1},
			"validation": {`body lacks "a|b"`: 5},
		},
		Reconnects: 12,
		Latency: &stats.Latency{Min: 101, Mean: 1540.5, Stdev: 2210.75, Max: 1_999_000,
			P50: 980, P75: 1500, P90: 3100, P95: 4800, P99: 9900, P999: 250_000, P9999: 1_800_000, WithinStdevPct: 91.3},
		ThreadRate: stats.Spread{Mean: 451.2, Stdev: 40.1, Max: 530, WithinStdevPct: 70, Samples: 180},
		Connect:    stats.ConnectTime{Count: 70, Mean: 95, Max: 1250},
		Client:     stats.ClientUsage{CPUSeconds: 4.4, CPUPercent: 97.8, CPUs: 1, Saturated: true},
		Server: []stats.ServerUsage{{PID: 4242, RSSBytes: stats.RSS{Idle: 11_010_048, Peak: 50_331_648, After: 32_768_000},
			CPUSeconds: 2.35, CPUUsPerRequest: 289.3, ExitedDuringLoad: true}},
		Warnings:    []string{"4 latencies beyond the histogram's range of 1h0m0s were left out of the percentiles"},
		Thresholds:  []stats.Threshold{{Expr: "p99<20ms", Value: "9.9ms", OK: true}, {Expr: "errors<0.1%", Value: "1.4%"}},
		Interrupted: true,
		Config: stats.Config{URL: "https://example.test/api?q=1&x=|", Method: "POST", Headers: []string{"Authorization: [redacted]"},
			BodyBytes: 17, RequestSHA256: "9c1185a5c5e9fc54612808977ee8f548b2258d31f2c8b7e1f1b1e1e3a1a1b1c1", Connections: 20, Threads: 4, DurationS: 30, TimeoutS: 2, KeepAlive: true,
			Command: "pummel -t4 -c20 -d30 -m POST -b '{\"a\":1}' -H 'Authorization: [redacted]' 'https://example.test/api?q=1&x=|'"},
		Environment: Environment(),
	}
}

// Counted is ab's shape: -n requests over 32 connections, a server
// started with --exec.
func Counted() stats.Result {
	startup := 0.0123
	return stats.Result{
		Requests: 40000, DurationS: 0.7472, RequestsPerS: 40000 / 0.7472, BytesRead: 40000 * 210, BytesWritten: 40000 * 120,
		Status:     map[string]int64{"200": 40000},
		Latency:    &stats.Latency{Min: 98, Mean: 590.1, Stdev: 120.9, Max: 4100, P50: 571, P75: 640, P90: 720, P95: 801, P99: 1090, P999: 2700, P9999: 4100, WithinStdevPct: 88.12},
		ThreadRate: stats.Spread{Mean: 53_500, Stdev: 1_200, Max: 55_100, WithinStdevPct: 71.43, Samples: 7},
		Server: []stats.ServerUsage{{PID: 777, RSSBytes: stats.RSS{Idle: 19_700_000, Peak: 27_100_000, After: 27_050_000},
			CPUSeconds: 0.61, CPUUsPerRequest: 15.25, StartupS: &startup}},
		Config: stats.Config{URL: "http://127.0.0.1:5077/public/v1/integrations", Method: "GET",
			Headers: []string{"Authorization: [redacted]"}, Connections: 32, Threads: 1, Requests: 40000, TimeoutS: 2, KeepAlive: true,
			Command: "pummel -k -c 32 -n 40000 -H 'Authorization: [redacted]' http://127.0.0.1:5077/public/v1/integrations"},
		Environment: Environment(),
	}
}

// OpenLoop is two -R stages; the second could not keep its schedule.
func OpenLoop() stats.Result {
	stage := func(rate float64, n int64, lag stats.ScheduleLag, status map[string]int64) stats.Result {
		return stats.Result{
			Requests: n, DurationS: 5, RequestsPerS: float64(n) / 5, BytesRead: n * 150, BytesWritten: n * 60,
			Status:             status,
			Errors:             stats.Errors{Read: 2, Status: status["503"]},
			ErrorCauses:        map[string]map[string]int64{"read": {"reset": 2}},
			Latency:            &stats.Latency{Min: 80, Mean: 900, Stdev: 300, Max: 9000, P50: 850, P75: 1000, P90: 1200, P95: 1500, P99: 4000, P999: 8000, P9999: 9000},
			LatencyUncorrected: &stats.Latency{Min: 70, Mean: 300, Stdev: 100, Max: 5000, P50: 280, P75: 330, P90: 400, P95: 500, P99: 900, P999: 4000, P9999: 5000},
			TargetRate:         rate, AchievedRate: rate * 0.97, ScheduleLag: &lag, AttackS: 4.99, WaitS: 0.0012,
		}
	}
	s1 := stage(10, 50, stats.ScheduleLag{P50: 400, P99: 950, Max: 1100}, map[string]int64{"200": 48})
	s2 := stage(250, 1250, stats.ScheduleLag{P50: 600, P99: 4500, Max: 9100, LateSends: 40}, map[string]int64{"200": 1200, "503": 48})
	s2.Warnings = []string{"the schedule was not kept"}
	all := stage(0, 1300, stats.ScheduleLag{P50: 590, P99: 4400, Max: 9100, LateSends: 40}, map[string]int64{"200": 1248, "503": 48})
	all.TargetRate, all.AchievedRate, all.DurationS = 0, 0, 10
	all.Stages = []stats.Result{s1, s2}
	all.Warnings = []string{"stage 2 (250/s): the schedule was not kept"}
	all.Config = stats.Config{URL: "http://127.0.0.1:8080/", Method: "GET", Connections: 64, Threads: 2, DurationS: 5, TimeoutS: 2,
		KeepAlive: true, Rates: []float64{10, 250}, WarmupS: 3, Command: "pummel -R 10,250 -d 5s --warmup 3s -c 64 http://127.0.0.1:8080/"}
	all.Environment = Environment()
	return all
}

// Empty completed nothing: its latency is absent, and every rate 0/0
// prints as 0.
func Empty() stats.Result {
	return stats.Result{
		Status: map[string]int64{},
		Config: stats.Config{URL: "http://127.0.0.1:9/", Method: "GET", Connections: 10, Threads: 2, DurationS: 10, TimeoutS: 2},
	}
}

// Environment is the machine the fixtures were measured on.
func Environment() stats.Environment {
	return stats.Environment{OS: "linux", Arch: "amd64", CPUModel: "AMD EPYC 7B13", CPUs: 2, MemoryBytes: 8_323_002_368,
		Kernel: "6.8.0-1019-gcp", GoVersion: "go1.26.8", PummelVersion: "v0.1.0", Date: "2025-11-30T03:50:00Z"}
}
