package suite

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/pummel-dev/pummel/internal/golden"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// fixedResult is an operation's result with the given latencies (in
// microseconds), built by hand so that every figure is known.
func fixedResult(t *testing.T, latenciesUs []int64, rate float64, cpuUs float64, peak int64, failures int64) *stats.Result {
	t.Helper()
	h := record.NewHistogram()
	for _, us := range latenciesUs {
		if err := h.RecordValue(us * 1000); err != nil {
			t.Fatal(err)
		}
	}
	enc, err := stats.EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	n := int64(len(latenciesUs))
	res := &stats.Result{
		Requests: n, DurationS: float64(n) / rate, RequestsPerS: rate, LatencyHistogram: enc, Latency: stats.Summarize(h),
		Status: map[string]int64{"200": n}, Errors: stats.Errors{Validation: failures},
		Server: []stats.ServerUsage{{PID: 100, CPUUsPerRequest: cpuUs, RSSBytes: stats.RSS{Peak: peak}}},
	}
	if rate < 1000 {
		res.Warnings = []string{"a slow run"}
	}
	if failures > 0 {
		res.ErrorCauses = map[string]map[string]int64{"validation": {`body lacks "ok"`: failures}}
	}
	return res
}

// fixedSuite is a suite of two modes × two runs with two operations; in
// the second slow run, "get" fails a check and "put", which depends on
// it, is skipped.
func fixedSuite(t *testing.T) *Result {
	rep := &Result{
		Name: "golden example", PlanFile: "scripts/example-plan.yaml", Modes: []string{"fast", "slow"}, RunsPerMode: 2,
		Operations: []OperationInfo{
			{Name: "get", Method: "GET", URL: "http://127.0.0.1:{port}/", Load: "sequential: 2 warm-up + 10 measured requests, one at a time over 1 keep-alive connection",
				Thresholds: []string{"p99<2ms", "rps>=1000"}},
			{Name: "put", Method: "PUT", URL: "http://127.0.0.1:{port}/obj", Load: "closed loop: 4 keep-alive connections, 1 thread, 1s", DependsOn: "get",
				Thresholds: []string{"server_rss_peak<12.5MiB"}},
		},
		Environment: stats.Environment{OS: "linux", Arch: "amd64", CPUModel: "Test CPU", CPUs: 2, MemoryBytes: 8 << 30,
			Kernel: "6.8.0", GoVersion: "go1.26.0", PummelVersion: "v0.0.0-test", Date: "2026-01-02T03:04:05Z",
			Binary: &stats.Binary{Path: "/usr/local/bin/server", SizeBytes: 12 << 20, SHA256: "0123456789abcdef0123456789abcdef", GitRevision: "6ba2bc5aaaaaaaaa", GitDirty: true}},
	}
	lat := func(base int64) []int64 {
		return []int64{base, base + 10, base + 20, base + 30, base + 40, base + 50, base + 60, base + 70, base + 80, base + 900}
	}
	run := func(mode string, n int, startupMs float64, idleMiB int64, get, put *stats.Result) RunResult {
		r := RunResult{Mode: mode, Run: n, StartupS: startupMs / 1000, IdleRSSBytes: idleMiB << 20, RSSAfterBytes: (idleMiB + 1) << 20,
			Operations: []OperationResult{{Name: "get", Result: get, CheckFailures: get.Errors.Validation, CheckCauses: get.ErrorCauses["validation"]}, {Name: "put", Result: put}}}
		if put == nil {
			r.Operations[1].Skipped = "get, which it depends on, failed a check in this run"
		}
		return r
	}
	rep.Runs = []RunResult{
		run("fast", 1, 9.5, 10, fixedResult(t, lat(100), 5000, 12.5, 11<<20, 0), fixedResult(t, lat(200), 20000, 30, 12<<20, 0)),
		run("slow", 1, 12.25, 11, fixedResult(t, lat(2100), 400, 20, 11<<20, 0), fixedResult(t, lat(2200), 1800, 40, 13<<20, 0)),
		run("fast", 2, 8.75, 10, fixedResult(t, lat(110), 4800, 13.5, 11<<20, 0), fixedResult(t, lat(210), 21000, 32, 12<<20, 0)),
		run("slow", 2, 14, 12, fixedResult(t, lat(2150), 390, 21, 12<<20, 3), nil),
	}
	if err := rep.Summarize(); err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestRenderersGolden(t *testing.T) {
	rep := fixedSuite(t)
	for _, tt := range []struct {
		file  string
		write func(*bytes.Buffer, *Result) error
	}{
		{"report.md.golden", func(b *bytes.Buffer, r *Result) error { return WriteMarkdown(b, r) }},
		{"report.txt.golden", func(b *bytes.Buffer, r *Result) error { return WriteText(b, r) }},
	} {
		var b bytes.Buffer
		if err := tt.write(&b, rep); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, tt.file, b.Bytes())
	}
}

func TestSummary(t *testing.T) {
	rep := fixedSuite(t)
	if rep.CheckFailures != 3 || len(rep.Summary.Operations) != 4 {
		t.Fatalf("check failures %d, %d summaries", rep.CheckFailures, len(rep.Summary.Operations))
	}
	fast := rep.Summary.Modes[0]
	if fast.Runs != 2 || !near(fast.StartupS.Median, 0.009125) || fast.StartupS.Min != 0.00875 || fast.IdleRSSBytes.Median != 10<<20 {
		t.Errorf("fast mode %+v", fast)
	}
	get := rep.Summary.Operations[0]
	if get.Requests != 20 || get.RequestsPerS != 4900 || !near(get.Latency.Min, 100) || !near(get.Latency.Max, 1010) {
		t.Errorf("get in fast: %+v", get)
	}
	putSlow := rep.Summary.Operations[3]
	if putSlow.Runs != 1 || putSlow.SkippedRuns != 1 || putSlow.Requests != 10 {
		t.Errorf("put in slow: %+v", putSlow)
	}
	wantFailures := []string{
		"operation get, mode slow: 3 of 20 responses failed a check (3 × body lacks \"ok\")",
		"operation get, mode slow: threshold p99<2ms failed: 3.05ms",
		"operation get, mode slow: threshold rps>=1000 failed: 395",
		"operation put, mode slow: threshold server_rss_peak<12.5MiB failed: 13.00MiB",
	}
	if got := rep.Failures(); !slices.Equal(got, wantFailures) {
		t.Errorf("Failures() = %q\nwant %q", got, wantFailures)
	}
	var back Result
	var b bytes.Buffer
	if err := WriteJSON(&b, rep); err != nil || json.Unmarshal(b.Bytes(), &back) != nil || back.Summary.Operations[3].SkippedRuns != 1 {
		t.Errorf("JSON round trip: %v", err)
	}
}

// near reports whether a is within 0.1% of b: histogram precision.
func near(a, b float64) bool { return math.Abs(a-b) <= 0.001*math.Abs(b) }
