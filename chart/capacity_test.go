package chart

import (
	"os"
	"path/filepath"
	"slices"
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
	for _, text := range []string{"SLO p99&lt;50ms", "capacity 300/s", "p50", "p99", "achieved", "achieved = offered"} {
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

// capacitySearch is a search over rates whose steps' latencies run from
// 1.2 to 5.8 ms, within a decade, under the SLO p99<5ms.
func capacitySearch(rates ...float64) stats.Result {
	last := rates[len(rates)-1]
	r := stats.Result{Capacity: &stats.Capacity{Rate: &last, Thresholds: []string{"p99<5ms", "errors<1%"}}}
	for i, x := range rates {
		r.Steps = append(r.Steps, stats.Result{TargetRate: x, AchievedRate: x, Latency: &stats.Latency{
			P50: 1200, P90: 1500, P99: 2000 + 500*float64(i%4), P999: 5800,
		}})
	}
	return r
}

// majorLabels returns the labels of a's ticks as drawn.
func majorLabels(a axis) []string {
	a = a.sanitized()
	var labels []string
	for _, t := range a.ticks() {
		if !t.IsMinor() {
			labels = append(labels, t.Label)
		}
	}
	return labels
}

// TestCapacityAxes: the rate axes are log scaled when the steps' rates
// span more than 10×, linear otherwise; every axis of both panels is
// numbered, the latency axis from 1 to 6 ms; the SLO's bound is a line
// across every rate within the latency axis, on either rate axis.
func TestCapacityAxes(t *testing.T) {
	tests := []struct {
		name    string
		rates   []float64
		log     bool
		xLabels []string
	}{
		{"exponential climb", []float64{10, 20, 40, 80, 160, 320, 640}, true, []string{"10", "20", "50", "100", "200", "500"}},
		{"to 100,000", []float64{10, 1e3, 1e5}, true, []string{"10", "100", "1,000", "10,000", "100,000"}},
		{"under 10×", []float64{100, 200, 400, 640}, false, []string{"100", "200", "300", "400", "500", "600"}},
		{"10× exactly", []float64{50, 100, 500}, false, []string{"100", "200", "300", "400", "500"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := capacitySearch(tt.rates...)
			steps := rateSteps(r.Steps)
			lat, ach := latencyPanel(steps, r.Capacity, logRates(steps)), achievedPanel(steps, logRates(steps))
			if lat.X.Log != tt.log || ach.X.Log != tt.log || ach.Y.Log != tt.log || !lat.Y.Log {
				t.Errorf("log scaled: rate %t, %t, achieved %t, latency %t; want rates %t, latency true", lat.X.Log, ach.X.Log, ach.Y.Log, lat.Y.Log, tt.log)
			}
			for _, p := range []*panel{lat, ach} {
				if got := majorLabels(p.X); !slices.Equal(got, tt.xLabels) {
					t.Errorf("%s: rate axis labelled %q, want %q", p.Title, got, tt.xLabels)
				}
			}
			if got, want := majorLabels(lat.Y), []string{"1", "2", "3", "4", "5", "6"}; !slices.Equal(got, want) {
				t.Errorf("latency axis labelled %q, want %q", got, want)
			}
			if got := majorLabels(ach.Y); len(got) < 3 {
				t.Errorf("achieved rate axis labelled %q, want three labels or more", got)
			}
			if !hasHLine(lat, 5, tt.rates[0], tt.rates[len(tt.rates)-1]) {
				t.Error("no line at the SLO's 5 ms across the rates")
			}
			if y := lat.Y.sanitized(); y.Min > 5 || y.Max < 5 {
				t.Errorf("latency axis %g–%g ms leaves out the SLO's 5 ms", y.Min, y.Max)
			}
		})
	}
}

// hasHLine reports whether p has a line at y from x0 to x1.
func hasHLine(p *panel, y, x0, x1 float64) bool {
	for _, it := range p.items {
		if l, ok := it.(*line); ok && slices.Equal(l.pts, xys{{X: x0, Y: y}, {X: x1, Y: y}}) {
			return true
		}
	}
	return false
}

// TestCapacityChartNumbersItsAxes: the drawn chart holds the latency
// axis's numbers and the SLO's name, on a log and on a linear rate axis.
func TestCapacityChartNumbersItsAxes(t *testing.T) {
	tests := []struct {
		name  string
		rates []float64
		want  []string
	}{
		{"log", []float64{10, 40, 160, 640}, []string{"10", "20", "50", "500"}},
		{"linear", []float64{100, 200, 400}, []string{"100", "250", "400"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "capacity.svg")
			if err := Capacity(capacitySearch(tt.rates...), path); err != nil {
				t.Fatal(err)
			}
			svg, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, text := range append(tt.want, "1", "2", "3", "4", "5", "6", "SLO p99&lt;5ms") {
				if !strings.Contains(string(svg), ">"+text+"<") {
					t.Errorf("the chart lacks %q", text)
				}
			}
		})
	}
}
