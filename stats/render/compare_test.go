package render

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/internal/golden"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/internal/statstest"
)

// TestCompareKeepsServerRows pins that the server's figures, startup and
// idle RSS included, are compared whether a side watched its server once
// or started it afresh for each of --runs (whose merged result keeps the
// servers in its runs).
func TestCompareKeepsServerRows(t *testing.T) {
	once := statstest.Counted()
	run := func(startupS float64, idle int64) stats.Result {
		r := statstest.Counted()
		r.Server[0].StartupS, r.Server[0].RSSBytes.Idle = &startupS, idle
		return r
	}
	runs := statstest.Counted()
	runs.Server, runs.Runs = nil, []stats.Result{run(0.010, 18_000_000), run(0.014, 20_000_000)}
	for _, tt := range []struct {
		name       string
		base, next stats.Result
	}{
		{"runs against once", once, runs},
		{"once against runs", runs, once},
		{"runs against runs", runs, runs},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteComparison(&b, []stats.Result{tt.base}, []stats.Result{tt.next}); err != nil {
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

func TestComparisonGolden(t *testing.T) {
	base, next := []stats.Result{statstest.Clean(t)}, []stats.Result{statstest.Counted(), statstest.Counted()}
	var txt, md bytes.Buffer
	if err := WriteComparison(&txt, base, next); err != nil {
		t.Fatal(err)
	}
	if err := WriteComparisonMarkdown(&md, base, next); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "compare.txt.golden", txt.Bytes())
	golden.Check(t, "compare.md.golden", md.Bytes())
}

// TestCompareReadsTheWorseServer: with two watched servers, the first
// better than the second, the table shows the second's figures, as a
// threshold and --max-regression judge them (stats/figure).
func TestCompareReadsTheWorseServer(t *testing.T) {
	r := statstest.Counted()
	first, second := r.Server[0], r.Server[0]
	first.PID, second.PID = 1, 2
	second.RSSBytes.Idle, second.RSSBytes.Peak = first.RSSBytes.Idle*3, first.RSSBytes.Peak*4
	second.CPUUsPerRequest = first.CPUUsPerRequest * 5
	r.Server = []stats.ServerUsage{first, second}
	var b strings.Builder
	if err := WriteComparison(&b, []stats.Result{r}, []stats.Result{r}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ row, want string }{
		{"Server RSS idle", FormatBytes(float64(second.RSSBytes.Idle))},
		{"Server RSS peak", FormatBytes(float64(second.RSSBytes.Peak))},
		{"Server CPU/request", FormatTime(second.CPUUsPerRequest)},
	} {
		if want := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(tt.row) + ` +` + regexp.QuoteMeta(tt.want) + ` `); !want.MatchString(b.String()) {
			t.Errorf("row %q does not read the worse server (%s):\n%s", tt.row, tt.want, b.String())
		}
	}
}

// TestComparisonKeepsAFigureSomeResultsLack: a side with one result that
// watched no server still shows the server's figure of the others, and
// says in how many it is missing.
func TestComparisonKeepsAFigureSomeResultsLack(t *testing.T) {
	watched := stats.Result{RequestsPerS: 100, Requests: 100, Server: []stats.ServerUsage{{PID: 1, CPUUsPerRequest: 5}}}
	unwatched := stats.Result{RequestsPerS: 100, Requests: 100}
	var b bytes.Buffer
	if err := WriteComparison(&b, []stats.Result{watched, unwatched}, []stats.Result{watched}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Server CPU/request") || !strings.Contains(b.String(), "(missing in 1)") {
		t.Errorf("comparison drops or hides the server figure one base result lacks:\n%s", b.String())
	}
}
