package export

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// TestDashboardReadsSeriesPummelExports: every series the Grafana
// dashboard (deploy/grafana, tested there against Grafana's schema)
// queries is one pummel exports, so a series renamed here breaks this
// test, not a user's dashboard.
func TestDashboardReadsSeriesPummelExports(t *testing.T) {
	raw, err := os.ReadFile("../deploy/grafana/pummel.json")
	if err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`pummel_[a-z_]+`).FindAllString(string(raw), -1)
	if len(names) == 0 {
		t.Fatal("the dashboard reads no series of pummel's")
	}
	for _, n := range names {
		if !slices.Contains(Metrics(), n) {
			t.Errorf("the dashboard reads %s, which pummel does not export", n)
		}
	}
}
