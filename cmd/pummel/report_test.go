package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

func TestReportMergesSavedResults(t *testing.T) {
	url := targetURL(t)
	dir := t.TempDir()
	var files []string
	for i, n := range []string{"300", "200"} {
		path := filepath.Join(dir, "run"+string(rune('a'+i))+".json")
		if code, _, stderr := pummel(t.Context(), "-c", "4", "-n", n, "-q", "-o", path, url); code != 0 {
			t.Fatalf("run: %s", stderr)
		}
		files = append(files, path)
	}
	code, stdout, stderr := pummel(t.Context(), append([]string{"report", "--format", "json"}, files...)...)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	var res stats.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	h, err := stats.DecodeHistogram(res.LatencyHistogram)
	if err != nil || res.Requests != 500 || h.TotalCount() != 500 {
		t.Errorf("merged %d requests, histogram %d (%v); want 500", res.Requests, h.TotalCount(), err)
	}

	code, stdout, _ = pummel(t.Context(), "compare", files[0], files[1])
	if code != 0 || !strings.Contains(stdout, "new/base") || !strings.Contains(stdout, "Latency p99") {
		t.Errorf("compare: exit %d:\n%s", code, stdout)
	}
	code, stdout, _ = pummel(t.Context(), "compare", "--format", "markdown", files[0], files[1], "vs", files[1])
	if code != 0 || !strings.Contains(stdout, "| Metric | Base | New | New/Base |") || !strings.Contains(stdout, "n=2") {
		t.Errorf("compare markdown: exit %d:\n%s", code, stdout)
	}
}

func TestReportBadInput(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	notJSON := file("notes.json", "hello")
	h := record.NewHistogram()
	h.RecordValue(150_000) //nolint:errcheck // in range
	oneLatency, err := stats.EncodeHistogram(h)
	if err != nil {
		t.Fatal(err)
	}
	const lat = `"latency_us": {"min": 150, "max": 150, "p50": 150}`
	tests := []struct {
		name  string
		args  []string
		wants []string // each must appear in the one line
	}{
		{"no files", []string{"report"}, []string{"report"}},
		{"missing file", []string{"report", "/nonexistent/r.json"}, []string{"/nonexistent/r.json"}},
		{"not JSON", []string{"report", notJSON}, []string{notJSON}},
		{"empty object", []string{"report", file("empty.json", "{}")}, []string{"empty.json", "config.url"}},
		{"null", []string{"report", file("null.json", "null")}, []string{"null.json", "null"}},
		{"negative count", []string{"report", file("negative.json", `{"requests": -5, "config": {"url": "http://h/"}}`)},
			[]string{"negative.json", "requests"}},
		{"status over requests", []string{"report", file("status.json",
			`{"requests": 2, "status": {"200": 2, "500": 1}, `+lat+`, "config": {"url": "http://h/"}}`)},
			[]string{"status.json", "status"}},
		{"histogram disagrees", []string{"report", file("histogram.json",
			`{"requests": 2, "status": {"200": 2}, `+lat+`, "latency_histogram": "`+oneLatency+`", "config": {"url": "http://h/"}}`)},
			[]string{"histogram.json", "latency_histogram"}},
		{"negative latency max", []string{"report", file("max.json", oneResponse(oneLatency, `"max": -1`, ""))},
			[]string{"max.json", "latency_us.max: -1 is negative"}},
		{"p50 above the max", []string{"report", file("p50.json", oneResponse(oneLatency, `"p50": 900`, ""))},
			[]string{"p50.json", "latency_us: p50 900 is above"}},
		{"rate far from requests over duration", []string{"report", file("rate.json", oneResponse(oneLatency, "", `"requests_per_s": 5000`))},
			[]string{"rate.json", "requests_per_s: 5000, but requests / duration_s is 1"}},
		{"a part of two billion", []string{"report", "--parallel", file("part.json", oneResponse(oneLatency, "", `"shard": {"index": 0, "count": 2000000000}`))},
			[]string{"part.json", "shard: index 0 of count 2000000000"}},
		{"compare a bad file", []string{"compare", notJSON, file("b.json", "{}")}, []string{notJSON}},
		{"compare one side", []string{"compare", notJSON}, []string{"compare"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := pummel(t.Context(), tt.args...)
			if code != exitUsage || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q: want 2 and one line", code, stderr)
			}
			for _, want := range tt.wants {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr %q does not name %q", stderr, want)
				}
			}
		})
	}
}

func TestHdrLogFlag(t *testing.T) {
	url := targetURL(t)
	path := filepath.Join(t.TempDir(), "latency.hlog")
	code, _, stderr := pummel(t.Context(), "-c", "2", "-d", "1200ms", "-q", "--hdr-log", path, url)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), "#[StartTime:") || strings.Count(string(b), "HISTF") < 2 {
		t.Errorf("hdr log (%v):\n%.400s", err, b)
	}
}

// TestReportWarnsOfMixedLoads pins that merging results of different
// loads says so on stderr and in the result, and lists every input's
// command, so that the merged figures are not taken for one load's.
func TestReportWarnsOfMixedLoads(t *testing.T) {
	a, b := differentLoads(t)
	code, stdout, stderr := pummel(t.Context(), "report", "--format", "json", a, b)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "warning") || !strings.Contains(stderr, "url, method, connections") {
		t.Errorf("stderr %q: want one warning naming url, method, connections", stderr)
	}
	var res stats.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if c := res.Config.MergedCommands; len(c) != 2 || !strings.Contains(c[0], "-c 2") || !strings.Contains(c[1], "-m HEAD") {
		t.Errorf("merged commands %q: want both inputs' commands in order", c)
	}
	if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "url, method, connections") }) {
		t.Errorf("warnings %q lack the mixed loads", res.Warnings)
	}
	_, text, _ := pummel(t.Context(), "report", a, b)
	if !strings.Contains(text, "Merged from 2 results:\n  pummel -c 2 -n 50") {
		t.Errorf("text lacks the commands:\n%s", text)
	}
	_, md, _ := pummel(t.Context(), "report", "--format", "markdown", a, b)
	if !strings.Contains(md, "**Commands (2 results merged)**\n\n```sh\npummel -c 2 -n 50") {
		t.Errorf("markdown lacks the commands:\n%s", md)
	}
}

// differentLoads saves the results of two different loads, a.json and
// b.json: other connections, method and URL.
func differentLoads(t *testing.T) (a, b string) {
	t.Helper()
	url := targetURL(t)
	dir := t.TempDir()
	a, b = filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	for _, args := range [][]string{{"-c", "2", "-n", "50", "-q", "-o", a, url}, {"-c", "3", "-n", "60", "-q", "-m", "HEAD", "-o", b, url + "bytes/10"}} {
		if code, _, stderr := pummel(t.Context(), args...); code != 0 {
			t.Fatalf("run: %s", stderr)
		}
	}
	return a, b
}

// TestReportOfDifferentLoads: results of different loads are charted side
// by side with no merged report; merged without --plot, the one line
// saying their loads differ comes before the report.
func TestReportOfDifferentLoads(t *testing.T) {
	a, b := differentLoads(t)
	charts := filepath.Join(t.TempDir(), "charts")
	code, stdout, stderr := pummel(t.Context(), "report", "--plot", charts, a, b)
	if code != 0 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "no merged report, as their loads differ (url, method, connections)") {
		t.Errorf("report --plot: exit %d, stdout %q, stderr %q; want 0, no report and one line saying why", code, stdout, stderr)
	}
	for _, name := range []string{"spectrum.svg", "timeline-a.svg", "timeline-b.svg"} {
		if _, err := os.Stat(filepath.Join(charts, name)); err != nil {
			t.Error(err)
		}
	}

	var both strings.Builder // stdout and stderr as a terminal shows them
	if code := run(t.Context(), []string{"report", a, b}, &both, &both); code != 0 {
		t.Fatalf("report: exit %d: %s", code, both.String())
	}
	if first, _, _ := strings.Cut(both.String(), "\n"); !strings.HasPrefix(first, "pummel: warning: the merged results ran different loads") {
		t.Errorf("first line %q: want the warning of different loads, before the report", first)
	}
}

// TestReportPlotLabels: --label names each file's lines in the charts'
// legends, one label per file.
func TestReportPlotLabels(t *testing.T) {
	a, b := differentLoads(t)
	charts := filepath.Join(t.TempDir(), "charts")
	if code, _, stderr := pummel(t.Context(), "report", "--plot", charts, "--label", "before", "--label", "after fix", a, b); code != 0 {
		t.Fatalf("report --plot --label: exit %d: %s", code, stderr)
	}
	svg, err := os.ReadFile(filepath.Join(charts, "spectrum.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, label := range []string{">before<", ">after fix<"} {
		if !strings.Contains(string(svg), label) {
			t.Errorf("the spectrum's legend lacks %s", label)
		}
	}
	if _, err := os.Stat(filepath.Join(charts, "timeline-after-fix.svg")); err != nil {
		t.Error(err)
	}
	for _, args := range [][]string{
		{"report", "--plot", charts, "--label", "only one", a, b},
		{"report", "--label", "a", a},
	} {
		if code, _, stderr := pummel(t.Context(), args...); code != exitUsage || !strings.HasPrefix(stderr, "pummel: --label: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("pummel %q: exit %d, stderr %q; want 2 and one line naming --label", args, code, stderr)
		}
	}
}

// oneResponse is a result of one response of 150µs in one second, as
// pummel writes it, with one latency figure replaced (`"max": -1`) and
// one top-level field added or replaced (`"requests_per_s": 5`).
func oneResponse(histogram, latency, field string) string {
	figures := map[string]string{}
	for _, f := range []string{"min", "mean", "max", "p50", "p75", "p90", "p95", "p99", "p99_9", "p99_99"} {
		figures[f] = `"` + f + `": 150`
	}
	if name, _, ok := strings.Cut(latency, ":"); ok {
		figures[strings.Trim(name, `"`)] = latency
	}
	lat := slices.Sorted(maps.Values(figures))
	top := map[string]string{"requests_per_s": `"requests_per_s": 1`}
	if name, _, ok := strings.Cut(field, ":"); ok {
		top[strings.Trim(name, `"`)] = field
	}
	return `{"requests": 1, "duration_s": 1, "status": {"200": 1}, "latency_histogram": "` + histogram + `", ` +
		`"latency_us": {` + strings.Join(lat, ", ") + `}, ` + strings.Join(slices.Sorted(maps.Values(top)), ", ") +
		`, "config": {"url": "http://h/"}}`
}
