package export

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// TestDashboardReadsSeriesPummelExports: every series the Grafana
// dashboard (deploy/grafana, tested there against Grafana's schema)
// queries is one a load exports, so a series renamed or dropped here
// breaks this test, not a user's dashboard.
func TestDashboardReadsSeriesPummelExports(t *testing.T) {
	raw, err := os.ReadFile("../deploy/grafana/pummel.json")
	if err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`pummel_[a-z_]+`).FindAllString(string(raw), -1)
	if len(names) == 0 {
		t.Fatal("the dashboard reads no series of pummel's")
	}
	exported := exportedNames()
	for _, n := range names {
		if !slices.Contains(exported, n) {
			t.Errorf("the dashboard reads %s, which pummel does not export", n)
		}
	}
}

// exportedNames lists the series a load with every option exports (open
// loop, a targets row, a watched server), a histogram's classic names
// (_bucket, _sum, _count) as well as its native one.
func exportedNames() []string {
	e := New(Options{})
	l := e.Load(LoadOptions{OpenLoop: true, Rows: []string{"a"},
		Servers: []Server{{PID: 1, Sample: func() (int64, float64, bool) { return 0, 0, false }}}})
	var names []string
	for _, s := range l.series {
		names = append(names, s.Name)
		if s.Kind == HistogramSeries {
			names = append(names, s.Name+"_bucket", s.Name+"_sum", s.Name+"_count")
		}
	}
	return names
}
