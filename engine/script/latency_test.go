package script

import (
	"testing"
	"time"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// TestFinishSeesEveryRunsLatencies pins that done() reads the latency
// histograms the runs handed over, merged, and the result's totals: with
// --runs, the latencies of every run.
func TestFinishSeesEveryRunsLatencies(t *testing.T) {
	const src = `
function done(summary, latency, requests)
  print(summary.requests, #latency, latency.min, latency.max, requests.mean)
end`
	p, _ := load(t, writeScript(t, src), nil, 1)
	for _, run := range [][]time.Duration{{time.Millisecond, 2 * time.Millisecond}, {3 * time.Millisecond}} {
		h := record.NewHistogram()
		for _, l := range run {
			h.RecordValue(int64(l)) //nolint:errcheck // in range
		}
		p.AddLatencies(h)
	}
	if err := p.Finish(stats.Result{Requests: 3, ThreadRate: stats.Spread{Mean: 42}}); err != nil {
		t.Fatal(err)
	}
	if want := "3\t3\t999.936\t3000.319\t42\n"; printed(p) != want { // the buckets' edges
		t.Errorf("done() printed %q, want %q", printed(p), want)
	}
}

// TestFinishWithoutRuns gives done() an empty latency when no run handed
// any over (every request failed before the first response).
func TestFinishWithoutRuns(t *testing.T) {
	p, _ := load(t, writeScript(t, "function done(s, latency, r) print(#latency, latency.max) end"), nil, 1)
	if err := p.Finish(stats.Result{}); err != nil {
		t.Fatal(err)
	}
	if want := "0\t0\n"; printed(p) != want {
		t.Errorf("done() printed %q, want %q", printed(p), want)
	}
}
