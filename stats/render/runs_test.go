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
