package stats

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/golden"
)

// fixtures are the results every renderer is pinned on, each with the
// text options its golden file was written with.
func fixtures(t *testing.T) []struct {
	name string
	r    Result
	opts TextOptions
} {
	return []struct {
		name string
		r    Result
		opts TextOptions
	}{
		{"clean", cleanRun(t), TextOptions{Latency: true}},
		{"errors", failingRun(), TextOptions{Latency: true}},
		{"requests", countedRun(), TextOptions{}},
		{"empty", emptyRun(), TextOptions{Latency: true}},
		{"openloop", openLoopRun(), TextOptions{Latency: true}},
		{"shard", shardPart(), TextOptions{}},
		{"sharded", shardedRun(t), TextOptions{}},
	}
}

// shardPart is part 1 of 3 of the counted run's load, started at a
// planned time.
func shardPart() Result {
	r := countedRun()
	r.Server = nil
	r.Shard = &Shard{Index: 1, Count: 3}
	r.StartAt, r.Start = "2026-12-01T15:00:00Z", "2026-12-01T15:00:00.00123Z"
	r.Config.Command = "pummel -k -c 32 -n 40000 --shard 1/3 --start-at 2026-12-01T15:00:00Z http://127.0.0.1:5077/"
	return r
}

// shardedRun merges three parts of one load, one of them missing and one
// whose client was saturated.
func shardedRun(t *testing.T) Result {
	hot := part(t, 2, 3*time.Millisecond, spread(900, 300, 3*time.Microsecond)...)
	hot.Client = ClientUsage{CPUSeconds: 1.9, CPUPercent: 95, CPUs: 2, Saturated: true}
	hot.Warnings = []string{SaturationWarning(hot.Client)}
	r, err := Combine([]Result{part(t, 0, 0, spread(100, 500, time.Microsecond)...), hot}, Parallel)
	if err != nil {
		t.Fatal(err)
	}
	r.Environment = testEnvironment()
	return r
}

// cleanRun is a 10 s closed-loop run whose latency figures and histogram
// come from a real HdrHistogram: a hump around 600us and a tail to 11.5ms.
func cleanRun(t *testing.T) Result {
	h := NewHistogram()
	for i := range 100 {
		h.RecordValues(int64(300_000+i*6_000), int64(1000-9*i))
	}
	for i := range 20 {
		h.RecordValues(int64(2_000_000+i*500_000), 3)
	}
	encoded, err := EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	n := h.TotalCount()
	return Result{
		Requests: n, DurationS: 10.0021, RequestsPerS: float64(n) / 10.0021,
		BytesRead: n * 155, BytesWritten: n * 40,
		Status:           map[string]int64{"200": n},
		Latency:          Summarize(h),
		LatencyHistogram: encoded,
		ThreadRate:       SpreadOf([]float64{2710, 2790, 2805, 2760, 2650, 2790, 2801, 2744}),
		Connect:          ConnectTime{Count: 64, Mean: 85.5, Max: 210.25},
		Client:           ClientUsage{CPUSeconds: 9.5, CPUPercent: 47.5, CPUs: 2},
		Config: RunConfig{URL: "http://127.0.0.1:8080/", Method: "GET", Connections: 64, Threads: 2,
			DurationS: 10, TimeoutS: 2, KeepAlive: true,
			Command: "pummel -t2 -c64 -d10s --latency http://127.0.0.1:8080/"},
		Environment: testEnvironment(),
	}
}

// failingRun has every kind of trouble: socket errors, non-2xx responses,
// failed checks, causes, reconnects, warnings, an interruption and a
// watched server.
func failingRun() Result {
	return Result{
		Requests: 8123, DurationS: 4.5, RequestsPerS: 8123 / 4.5, BytesRead: 1_234_567, BytesWritten: 456_789,
		Status: map[string]int64{"200": 8000, "404": 3, "503": 100, "201": 20},
		Errors: Errors{Connect: 2, Read: 4, Timeout: 1, Status: 103, Validation: 5},
		ErrorCauses: map[string]map[string]int64{
			"read":       {"reset": 3, "EOF before response": 1},
			"connect":    {"refused": 2},
			"timeout":    {"no response within 2s": 1},
			"validation": {`body lacks "a|b"`: 5},
		},
		Reconnects: 12,
		Latency: &Latency{Min: 101, Mean: 1540.5, Stdev: 2210.75, Max: 1_999_000,
			P50: 980, P75: 1500, P90: 3100, P95: 4800, P99: 9900, P999: 250_000, P9999: 1_800_000, WithinStdevPct: 91.3},
		ThreadRate: Spread{Mean: 451.2, Stdev: 40.1, Max: 530, WithinStdevPct: 70, Samples: 180},
		Connect:    ConnectTime{Count: 70, Mean: 95, Max: 1250},
		Client:     ClientUsage{CPUSeconds: 4.4, CPUPercent: 97.8, CPUs: 1, Saturated: true},
		Server: []ServerUsage{{PID: 4242, RSSBytes: RSS{Idle: 11_010_048, Peak: 50_331_648, After: 32_768_000},
			CPUSeconds: 2.35, CPUUsPerRequest: 289.3, ExitedDuringLoad: true}},
		Warnings:    []string{"4 latencies beyond the histogram's range of 1h0m0s were left out of the percentiles"},
		Thresholds:  []Threshold{{Expr: "p99<20ms", Value: "9.9ms", OK: true}, {Expr: "errors<0.1%", Value: "1.4%"}},
		Interrupted: true,
		Config: RunConfig{URL: "https://example.test/api?q=1&x=|", Method: "POST", Headers: []string{"Authorization: [redacted]"},
			BodyBytes: 17, Connections: 20, Threads: 4, DurationS: 30, TimeoutS: 2, KeepAlive: true,
			Command: "pummel -t4 -c20 -d30 -m POST -b '{\"a\":1}' -H 'Authorization: [redacted]' 'https://example.test/api?q=1&x=|'"},
		Environment: testEnvironment(),
	}
}

// countedRun is ab's shape: -n requests over 32 connections, a server
// started with --exec.
func countedRun() Result {
	startup := 0.0123
	return Result{
		Requests: 40000, DurationS: 0.7472, RequestsPerS: 40000 / 0.7472, BytesRead: 40000 * 210, BytesWritten: 40000 * 120,
		Status:     map[string]int64{"200": 40000},
		Latency:    &Latency{Min: 98, Mean: 590.1, Stdev: 120.9, Max: 4100, P50: 571, P75: 640, P90: 720, P95: 801, P99: 1090, P999: 2700, P9999: 4100, WithinStdevPct: 88.12},
		ThreadRate: Spread{Mean: 53_500, Stdev: 1_200, Max: 55_100, WithinStdevPct: 71.43, Samples: 7},
		Server: []ServerUsage{{PID: 777, RSSBytes: RSS{Idle: 19_700_000, Peak: 27_100_000, After: 27_050_000},
			CPUSeconds: 0.61, CPUUsPerRequest: 15.25, StartupS: &startup}},
		Config: RunConfig{URL: "http://127.0.0.1:5077/public/v1/integrations", Method: "GET",
			Headers: []string{"Authorization: [redacted]"}, Connections: 32, Threads: 1, Requests: 40000, TimeoutS: 2, KeepAlive: true,
			Command: "pummel -k -c 32 -n 40000 -H 'Authorization: [redacted]' http://127.0.0.1:5077/public/v1/integrations"},
		Environment: testEnvironment(),
	}
}

// openLoopRun is two -R stages; the second could not keep its schedule.
func openLoopRun() Result {
	stage := func(rate float64, n int64, lag ScheduleLag, status map[string]int64) Result {
		return Result{
			Requests: n, DurationS: 5, RequestsPerS: float64(n) / 5, BytesRead: n * 150, BytesWritten: n * 60,
			Status:             status,
			Errors:             Errors{Read: 2, Status: status["503"]},
			ErrorCauses:        map[string]map[string]int64{"read": {"reset": 2}},
			Latency:            &Latency{Min: 80, Mean: 900, Stdev: 300, Max: 9000, P50: 850, P75: 1000, P90: 1200, P95: 1500, P99: 4000, P999: 8000, P9999: 9000},
			LatencyUncorrected: &Latency{Min: 70, Mean: 300, Stdev: 100, Max: 5000, P50: 280, P75: 330, P90: 400, P95: 500, P99: 900, P999: 4000, P9999: 5000},
			TargetRate:         rate, AchievedRate: rate * 0.97, ScheduleLag: &lag, AttackS: 4.99, WaitS: 0.0012,
		}
	}
	s1 := stage(10, 50, ScheduleLag{P50: 400, P99: 950, Max: 1100}, map[string]int64{"200": 48})
	s2 := stage(250, 1250, ScheduleLag{P50: 600, P99: 4500, Max: 9100, LateSends: 40}, map[string]int64{"200": 1200, "503": 48})
	s2.Warnings = []string{"the schedule was not kept"}
	all := stage(0, 1300, ScheduleLag{P50: 590, P99: 4400, Max: 9100, LateSends: 40}, map[string]int64{"200": 1248, "503": 48})
	all.TargetRate, all.AchievedRate, all.DurationS = 0, 0, 10
	all.Stages = []Result{s1, s2}
	all.Warnings = []string{"stage 2 (250/s): the schedule was not kept"}
	all.Config = RunConfig{URL: "http://127.0.0.1:8080/", Method: "GET", Connections: 64, Threads: 2, DurationS: 5, TimeoutS: 2,
		KeepAlive: true, Rates: []float64{10, 250}, WarmupS: 3, Command: "pummel -R 10,250 -d 5s --warmup 3s -c 64 http://127.0.0.1:8080/"}
	all.Environment = testEnvironment()
	return all
}

// emptyRun completed nothing: its latency is absent, and every rate 0/0
// prints as 0.
func emptyRun() Result {
	return Result{
		Status: map[string]int64{},
		Config: RunConfig{URL: "http://127.0.0.1:9/", Method: "GET", Connections: 10, Threads: 2, DurationS: 10, TimeoutS: 2},
	}
}

func testEnvironment() Environment {
	return Environment{OS: "linux", Arch: "amd64", CPUModel: "AMD EPYC 7B13", CPUs: 2, MemoryBytes: 8_323_002_368,
		Kernel: "6.8.0-1019-gcp", GoVersion: "go1.26.8", PummelVersion: "v0.1.0", Date: "2025-11-30T03:50:00Z"}
}

func TestRenderersGolden(t *testing.T) {
	for _, f := range fixtures(t) {
		t.Run(f.name, func(t *testing.T) {
			for _, out := range []struct {
				ext   string
				write func(*bytes.Buffer) error
			}{
				{"txt", func(b *bytes.Buffer) error { return WriteText(b, f.r, f.opts) }},
				{"md", func(b *bytes.Buffer) error { return WriteMarkdown(b, f.r) }},
				{"json", func(b *bytes.Buffer) error { return WriteJSON(b, f.r) }},
			} {
				var b bytes.Buffer
				if err := out.write(&b); err != nil {
					t.Fatalf("%s: %v", out.ext, err)
				}
				if s := b.String(); strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
					t.Errorf("%s output holds NaN or Inf:\n%s", out.ext, s)
				}
				golden.Check(t, f.name+"."+out.ext+".golden", b.Bytes())
			}
		})
	}
}

// TestWriteTextReproducesWrk feeds wrk's own published figures through
// WriteText and expects wrk's output byte for byte: with nothing beyond what
// wrk measures, pummel prints exactly what wrk prints.
func TestWriteTextReproducesWrk(t *testing.T) {
	for _, tt := range []struct {
		name string
		r    Result
		opts TextOptions
		want string
	}{{
		name: "wrk README",
		r: Result{
			Requests: 22464657, DurationS: 30, RequestsPerS: 748868.53, BytesRead: mib(606.33 * 30),
			Latency:    &Latency{Mean: 635.91, Stdev: 890, Max: 12920, WithinStdevPct: 93.69},
			ThreadRate: Spread{Mean: 56_200, Stdev: 8_070, Max: 62_000, WithinStdevPct: 86.54},
			Config:     RunConfig{URL: "http://127.0.0.1:8080/index.html", Connections: 400, Threads: 12, DurationS: 30},
		},
		want: `Running 30s test @ http://127.0.0.1:8080/index.html
  12 threads and 400 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   635.91us    0.89ms  12.92ms   93.69%
    Req/Sec    56.20k     8.07k   62.00k    86.54%
  22464657 requests in 30.00s, 17.76GB read
Requests/sec: 748868.53
Transfer/sec:    606.33MB
`,
	}, {
		name: "wrk --latency with socket errors (seed 004)",
		r: Result{
			Requests: 965396910, DurationS: 600.097, RequestsPerS: 1608742.65, BytesRead: mib(167.23 * 600.097),
			Errors:     Errors{Connect: 19},
			Latency:    &Latency{Mean: 1030, Stdev: 1840, Max: 208_100, P50: 475, P75: 784, P90: 2120, P99: 9740, WithinStdevPct: 92.16},
			ThreadRate: Spread{Mean: 101_110, Stdev: 17_590, Max: 164_780, WithinStdevPct: 70.99},
			Config:     RunConfig{URL: "http://localhost:13734/empty-operation", Connections: 1024, Threads: 16, DurationS: 600},
		},
		opts: TextOptions{Latency: true},
		want: `Running 10m test @ http://localhost:13734/empty-operation
  16 threads and 1024 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.03ms    1.84ms 208.10ms   92.16%
    Req/Sec   101.11k    17.59k  164.78k    70.99%
  Latency Distribution
     50%  475.00us
     75%  784.00us
     90%    2.12ms
     99%    9.74ms
  965396910 requests in 10.00m, 98.00GB read
  Socket errors: connect 19, read 0, write 0, timeout 0
Requests/sec: 1608742.65
Transfer/sec:    167.23MB
`,
	}} {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteText(&b, tt.r, tt.opts); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestTextHeaderNamesTheLoadShape(t *testing.T) {
	for _, tt := range []struct {
		name string
		c    RunConfig
		want string
	}{
		{"whole seconds as wrk", RunConfig{URL: "http://h/", DurationS: 90}, "Running 2m test @ http://h/\n"},
		{"sub-second duration", RunConfig{URL: "http://h/", DurationS: 0.5}, "Running 500ms test @ http://h/\n"},
		{"fractional seconds", RunConfig{URL: "http://h/", DurationS: 1.5}, "Running 1.5s test @ http://h/\n"},
		{"request count", RunConfig{URL: "http://h/", Requests: 40000}, "Running 40000 requests test @ http://h/\n"},
		{"request count within a duration", RunConfig{URL: "http://h/", Requests: 500, DurationS: 10},
			"Running 500 requests test (at most 10s) @ http://h/\n"},
		{"warm-up", RunConfig{URL: "http://h/", DurationS: 10, WarmupS: 2}, "Running 10s test (after a 2s warm-up) @ http://h/\n"},
		{"warm-up requests", RunConfig{URL: "http://h/", Requests: 500, WarmupRequests: 100},
			"Running 500 requests test (after 100 warm-up requests) @ http://h/\n"},
		{"one rate", RunConfig{URL: "http://h/", DurationS: 10, Rates: []float64{1000}}, "Running 10s test (at 1000 req/s) @ http://h/\n"},
		{"rate stages", RunConfig{URL: "http://h/", DurationS: 3, Rates: []float64{100, 500, 2000}, WarmupS: 2},
			"Running 9s test (3 stages of 3s at 100, 500, 2000 req/s, after a 2s warm-up) @ http://h/\n"},
		{"runs of a count", RunConfig{URL: "http://h/", Requests: 20000, Runs: 2},
			"Running 40000 requests test (2 runs of 20000 requests) @ http://h/\n"},
		{"runs of a count within a duration", RunConfig{URL: "http://h/", Requests: 100, DurationS: 5, Runs: 3},
			"Running 300 requests test (3 runs of 100 requests, at most 5s each) @ http://h/\n"},
		{"runs of stages", RunConfig{URL: "http://h/", DurationS: 3, Rates: []float64{10, 20}, WarmupS: 1, Runs: 2},
			"Running 12s test (2 runs of 6s, 2 stages of 3s at 10, 20 req/s, after a 1s warm-up each) @ http://h/\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteText(&b, Result{Config: tt.c}, TextOptions{}); err != nil {
				t.Fatal(err)
			}
			if got, _, _ := strings.Cut(b.String(), "  "); got != tt.want {
				t.Errorf("header = %q, want %q", got, tt.want)
			}
		})
	}
}

type failingWriter struct{ after int }

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.after {
		n := w.after
		w.after = 0
		return n, errDiskFull
	}
	w.after -= len(p)
	return len(p), nil
}

func TestRenderersReturnWriteErrors(t *testing.T) {
	r := failingRun()
	for _, tt := range []struct {
		name  string
		write func(*failingWriter) error
	}{
		{"text", func(w *failingWriter) error { return WriteText(w, r, TextOptions{Latency: true}) }},
		{"markdown", func(w *failingWriter) error { return WriteMarkdown(w, r) }},
		{"json", func(w *failingWriter) error { return WriteJSON(w, r) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, after := range []int{0, 100, 1000} {
				if err := tt.write(&failingWriter{after: after}); !errors.Is(err, errDiskFull) {
					t.Errorf("write failing after %d bytes: err = %v, want %v", after, err, errDiskFull)
				}
			}
		})
	}
}

// mib converts mebibytes to bytes at run time (the constants above are not
// whole numbers of bytes).
func mib(n float64) int64 { return int64(n * (1 << 20)) }
