package stats

import (
	"strings"
	"testing"
)

// TestCompareKeepsServerRows pins that the server's figures, startup and
// idle RSS included, are compared whether a side watched its server once
// or started it afresh for each of --runs (whose merged result keeps the
// servers in its runs).
func TestCompareKeepsServerRows(t *testing.T) {
	once := countedRun()
	run := func(startupS float64, idle int64) Result {
		r := countedRun()
		r.Server[0].StartupS, r.Server[0].RSSBytes.Idle = &startupS, idle
		return r
	}
	runs := countedRun()
	runs.Server, runs.Runs = nil, []Result{run(0.010, 18_000_000), run(0.014, 20_000_000)}
	for _, tt := range []struct {
		name       string
		base, next Result
	}{
		{"runs against once", once, runs},
		{"once against runs", runs, once},
		{"runs against runs", runs, runs},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteComparison(&b, []Result{tt.base}, []Result{tt.next}); err != nil {
				t.Fatal(err)
			}
			for _, row := range []string{"Server startup", "Server RSS idle", "Server RSS peak", "Server CPU/request"} {
				if !strings.Contains(b.String(), "\n"+row+" ") {
					t.Errorf("no %q row:\n%s", row, b.String())
				}
			}
			if !strings.Contains(b.String(), "12.00ms (10.00ms–14.00ms, n=2)") {
				t.Errorf("the runs' startups are not each a sample:\n%s", b.String())
			}
		})
	}
}
