package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/stats"
)

func TestReportMergesSavedResults(t *testing.T) {
	url := target(t)
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
	notJSON := filepath.Join(t.TempDir(), "notes.json")
	os.WriteFile(notJSON, []byte("hello"), 0o600) //nolint:errcheck // checked by the run below
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no files", []string{"report"}, "report"},
		{"missing file", []string{"report", "/nonexistent/r.json"}, "/nonexistent/r.json"},
		{"not a result", []string{"report", notJSON}, notJSON},
		{"compare one side", []string{"compare", notJSON}, "compare"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := pummel(t.Context(), tt.args...)
			if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q: want 2 and one line naming %q", code, stderr, tt.want)
			}
		})
	}
}

func TestHdrLogFlag(t *testing.T) {
	url := target(t)
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
