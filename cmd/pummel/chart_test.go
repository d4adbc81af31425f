package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// savedRuns runs pummel twice against the built-in target, which runs in
// this process, and saves the results as fast.json and watched.json; the
// second watches this process (the server), so it has an RSS series.
func savedRuns(t *testing.T) (dir string, files []string) {
	t.Helper()
	url := targetURL(t)
	dir = t.TempDir()
	for _, run := range []struct {
		name string
		args []string
	}{
		{"fast", nil},
		{"watched", []string{"--pid", fmt.Sprint(os.Getpid())}},
	} {
		path := filepath.Join(dir, run.name+".json")
		args := append([]string{"-c", "2", "-d", "1200ms", "-q", "-o", path}, run.args...)
		if code, _, stderr := pummel(t.Context(), append(args, url)...); code != 0 {
			t.Fatalf("%s run: exit %d: %s", run.name, code, stderr)
		}
		files = append(files, path)
	}
	return dir, files
}

func TestReportPlot(t *testing.T) {
	dir, files := savedRuns(t)
	checkRSSSeries(t, files[1])

	charts := filepath.Join(dir, "charts")
	code, stdout, stderr := pummel(t.Context(), append([]string{"report", "--plot", charts}, files...)...)
	if code != 0 || !strings.Contains(stdout, "Requests/sec:") {
		t.Fatalf("report --plot: exit %d: %s%s", code, stdout, stderr)
	}
	for _, name := range []string{"spectrum", "timeline-fast", "timeline-watched", "rss-watched"} {
		for _, ext := range []string{".svg", ".png"} {
			if fi, err := os.Stat(filepath.Join(charts, name+ext)); err != nil || fi.Size() == 0 {
				t.Errorf("%s%s: %v", name, ext, err)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(charts, "rss-fast.svg")); err == nil {
		t.Error("rss-fast.svg written for a run that watched no server")
	}

	md := filepath.Join(dir, "report.md")
	if code, _, stderr := pummel(t.Context(), "report", "--plots", "-o", md, files[1]); code != 0 {
		t.Fatalf("report --plots: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	head, section, ok := strings.Cut(string(b), "\n**Charts**\n")
	if !ok || !strings.Contains(head, "| Throughput |") {
		t.Fatalf("report.md lacks the result followed by a Charts section:\n%s", b)
	}
	for _, link := range []string{
		"![latency percentile spectrum](report-charts/spectrum.svg)",
		"![requests/s and latency over time: watched](report-charts/timeline-watched.svg)",
		"![server RSS over time: watched](report-charts/rss-watched.svg)",
	} {
		target := strings.TrimSuffix(link[strings.Index(link, "(")+1:], ")")
		if _, err := os.Stat(filepath.Join(dir, target)); !strings.Contains(section, link) || err != nil {
			t.Errorf("Charts section lacks %s, or its file (%v):\n%s", link, err, section)
		}
	}
}

// checkRSSSeries fails unless the saved result's server has an RSS series
// spanning the load, timed from its start.
func checkRSSSeries(t *testing.T, path string) {
	t.Helper()
	res := readResultFile(t, path)
	if len(res.Server) != 1 || len(res.Server[0].RSSSeries) < 5 {
		t.Fatalf("server %+v: want one server with an RSS series", res.Server)
	}
	series := res.Server[0].RSSSeries
	first, last := series[0], series[len(series)-1]
	// The first sample is taken as the load starts. A series timed from
	// when watching began would start after the idle samples, 400 ms
	// (proc.DefaultIdleSamples and DefaultIdleGap); half of that leaves
	// a busy machine room.
	if first.T < 0 || first.T > 0.2 || last.T < res.DurationS || last.T > res.DurationS+1 || first.Bytes <= 0 {
		t.Errorf("RSS series from %+v to %+v: want 0 s to the end of the %.2f s load", first, last, res.DurationS)
	}
}

func TestReportPlotsNeedsMarkdown(t *testing.T) {
	code, _, stderr := pummel(t.Context(), "report", "--plots", "-o", filepath.Join(t.TempDir(), "r.json"), "/nonexistent/r.json")
	if code != exitUsage || !strings.Contains(stderr, "--plots") {
		t.Errorf("exit %d, stderr %q: want 2 and a line naming --plots", code, stderr)
	}
}
