package chart

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/stats"
)

func TestLatencyBounds(t *testing.T) {
	got := latencyBounds([]string{"p99<50ms", "errors<0.1%", "p99.9 <= 1s", "mean<250us", "server_rss_peak<1GiB", "p50>1ms"})
	want := []latencyBound{{"p99<50ms", 50}, {"p99.9 <= 1s", 1000}, {"mean<250us", 0.25}}
	if len(got) != len(want) {
		t.Fatalf("latencyBounds = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("bound %d = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestRateStepsKeepsTheLastOfARate(t *testing.T) {
	l := &stats.Latency{P50: 1}
	steps := rateSteps([]stats.Result{
		{Latency: l}, // the probe
		{TargetRate: 400, Latency: l, AchievedRate: 1},
		{TargetRate: 100, Latency: l},
		{TargetRate: 200}, // no response
		{TargetRate: 400, Latency: l, AchievedRate: 2},
	})
	if len(steps) != 2 || steps[0].TargetRate != 100 || steps[1].AchievedRate != 2 {
		t.Errorf("rateSteps = %+v", steps)
	}
}

func TestCapacityChart(t *testing.T) {
	rate := 300.0
	r := stats.Result{Capacity: &stats.Capacity{Rate: &rate, Thresholds: []string{"p99<50ms"}}}
	for i, x := range []float64{100, 200, 300, 400} {
		r.Steps = append(r.Steps, stats.Result{TargetRate: x, AchievedRate: x, Latency: &stats.Latency{P50: 100 * float64(i+1), P90: 1e3, P99: 5e3 * float64(i+1), P999: 9e4}})
	}
	dir := t.TempDir()
	for _, name := range []string{"capacity.svg", "capacity.png"} {
		path := filepath.Join(dir, name)
		if err := Capacity(r, path); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	svg, err := os.ReadFile(filepath.Join(dir, "capacity.svg"))
	if err != nil {
		t.Fatal(err)
	}
	// The SLO's bound, the capacity, the percentiles and both panels'
	// achieved lines are drawn and named.
	for _, text := range []string{"p99&lt;50ms", "capacity 300/s", "p50", "p99", "achieved", "achieved = offered"} {
		if !strings.Contains(string(svg), ">"+text+"<") {
			t.Errorf("the capacity chart lacks %q", text)
		}
	}
	if err := Capacity(stats.Result{}, filepath.Join(dir, "none.svg")); err == nil {
		t.Error("a result without steps: no error")
	}
	paths, err := WriteAll(filepath.Join(dir, "all"), []Named{{Name: "search", Result: r}})
	if err != nil || len(paths) != 2 || filepath.Base(paths[0]) != "capacity.svg" {
		t.Errorf("WriteAll = %v, %v; want capacity.svg and .png", paths, err)
	}
}
