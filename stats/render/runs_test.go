package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/stats"
)

// TestMarkdownOfRunsIsReadyToPaste: the markdown of --exec --runs opens
// with a heading, keeps the spread over the runs as the text does, and
// names the server's executable without its local path.
func TestMarkdownOfRunsIsReadyToPaste(t *testing.T) {
	var runs []stats.Result
	for _, rps := range []float64{41_000, 52_000, 47_000} {
		runs = append(runs, stats.Result{RequestsPerS: rps, Requests: int64(rps), DurationS: 1,
			Latency: &stats.Latency{P50: 400, P99: 900, Max: 1000}})
	}
	r := stats.Result{RequestsPerS: 46_667, Requests: 140_000, DurationS: 3, Latency: runs[0].Latency, Runs: runs}
	r.Config = stats.Config{URL: "http://127.0.0.1:8080/", Method: "GET", Connections: 8, Threads: 2, DurationS: 1, Runs: 3}
	r.Environment.Binary = &stats.Binary{Path: "/root/go/bin/pummel", SizeBytes: 1 << 20, SHA256: strings.Repeat("ab", 32)}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, r); err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := WriteText(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if !strings.HasPrefix(md, "## Load test of GET http://127.0.0.1:8080/\n\n") {
		t.Errorf("markdown does not open with a heading naming the target:\n%s", md)
	}
	for _, want := range []string{"| Requests/sec | 41,000.00 | 47,000.00 | 52,000.00 |", "size of pummel (SHA-256"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(text.String(), "41,000.00    47,000.00    52,000.00") {
		t.Errorf("the text, which the markdown follows, lacks the spread:\n%s", text.String())
	}
	if strings.Contains(md, "/root/") {
		t.Errorf("markdown holds a local path:\n%s", md)
	}
}

// TestRunsTableKeepsAFigureSomeRunsLack: a run without a server figure (its
// process watched nothing) or without latencies (no response) leaves the
// figure's row to the other runs, and the table says it is missing there.
func TestRunsTableKeepsAFigureSomeRunsLack(t *testing.T) {
	run := func(peak int64, p99 float64) stats.Result {
		r := stats.Result{RequestsPerS: 100, Requests: 100, DurationS: 1}
		if p99 > 0 {
			r.Latency = &stats.Latency{P50: p99 / 2, P99: p99, Max: p99}
		}
		if peak > 0 {
			r.Server = []stats.ServerUsage{{PID: 1, RSSBytes: stats.RSS{Idle: peak / 2, Peak: peak, After: peak}, CPUUsPerRequest: 5}}
		}
		return r
	}
	r := stats.Result{RequestsPerS: 100, Requests: 300, DurationS: 3, Latency: &stats.Latency{P50: 400, P99: 900, Max: 900},
		Runs: []stats.Result{run(10<<20, 900), run(0, 800), run(30<<20, 0)}}
	var text bytes.Buffer
	if err := WriteText(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Peak RSS", "10.00MiB", "30.00MiB", "Peak RSS: missing in 1 of 3 runs", "Latency p99", "Latency p99: missing in 1 of 3 runs"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("runs table lacks %q:\n%s", want, text.String())
		}
	}
}
