package chart

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPummelLeavesGonumPlotOut: the pummel binary does not link
// gonum.org/v1/plot or its plotter package, whose package init parses a
// dozen fonts at every start, a load run's included; the chart package
// draws with gonum's low-level packages and parses the fonts at its first
// chart.
func TestPummelLeavesGonumPlotOut(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(goTool, "list", "-deps", "github.com/pummel-dev/pummel/cmd/pummel").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "gonum.org/v1/plot" || pkg == "gonum.org/v1/plot/plotter" || pkg == "gonum.org/v1/plot/plotutil" {
			t.Errorf("pummel depends on %s: its init runs at every start", pkg)
		}
	}
}
