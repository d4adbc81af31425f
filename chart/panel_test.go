package chart

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TestAxisRange: an axis's range grows with what is added to its panel,
// and is made drawable when empty, a single value, or log scaled at 0.
func TestAxisRange(t *testing.T) {
	p := newPanel("", "x", "y")
	p.add(&line{pts: xys{{X: 2, Y: 5}, {X: 4, Y: 3}}}, &line{pts: xys{{X: 1, Y: 4}}})
	if p.X.Min != 1 || p.X.Max != 4 || p.Y.Min != 3 || p.Y.Max != 5 {
		t.Errorf("range x %g–%g, y %g–%g; want x 1–4, y 3–5", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
	tests := []struct {
		name     string
		in       axis
		min, max float64
	}{
		{"empty", newAxis(""), 0, 1},
		{"one value", axis{Min: 3, Max: 3}, 2, 4},
		{"log one value", axis{Min: 10, Max: 10, Log: true}, 1, 100},
		{"log from 0", axis{Min: 0, Max: 100, Log: true}, 1e-3, 100},
		{"set", axis{Min: 0, Max: 7}, 0, 7},
	}
	for _, tt := range tests {
		if a := tt.in.sanitized(); a.Min != tt.min || a.Max != tt.max {
			t.Errorf("%s: %g–%g, want %g–%g", tt.name, a.Min, a.Max, tt.min, tt.max)
		}
	}
}

// TestAxisPlaces: values fall where a linear or log axis puts them.
func TestAxisPlaces(t *testing.T) {
	lin := axis{Min: 0, Max: 200}
	log := axis{Min: 0.1, Max: 100, Log: true}
	tests := []struct {
		a    axis
		v    float64
		want vg.Length
	}{
		{lin, 0, 100}, {lin, 50, 125}, {lin, 200, 200},
		{log, 0.1, 100}, {log, 1, 100 + 100.0/3}, {log, 100, 200},
	}
	for _, tt := range tests {
		if got := tt.a.at(tt.v, 100, 200); math.Abs(float64(got-tt.want)) > 1e-9 {
			t.Errorf("%+v: %g at %g, want %g", tt.a, tt.v, got, tt.want)
		}
	}
}

// TestStepLine: a step line holds each value from the previous point to
// its own, rising or falling at the previous point's x.
func TestStepLine(t *testing.T) {
	p := newPanel("", "", "")
	pts := xys{{X: 0, Y: 1}, {X: 1, Y: 1}, {X: 2, Y: 3}}
	p.X, p.Y = axis{Min: 0, Max: 2}, axis{Min: 0, Max: 4}
	c := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: 20, Y: 40}}}
	want := []vg.Point{{X: 0, Y: 10}, {X: 10, Y: 10}, {X: 10, Y: 30}, {X: 20, Y: 30}}
	if got := (&line{pts: pts, step: true}).points(c, p); !slices.Equal(got, want) {
		t.Errorf("step line %v, want %v", got, want)
	}
	if got := (&line{pts: pts}).points(c, p); len(got) != 3 {
		t.Errorf("plain line %v, want its 3 points", got)
	}
}

// TestFontsParsedAtTheFirstChart: the package parses no font until a
// chart is drawn. It runs in a fresh test process, as other tests draw.
func TestFontsParsedAtTheFirstChart(t *testing.T) {
	if os.Getenv("PUMMEL_CHART_FONTS_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFontsParsedAtTheFirstChart$", "-test.count=1")
		cmd.Env = append(os.Environ(), "PUMMEL_CHART_FONTS_CHILD=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	if fonts.handler != nil {
		t.Fatal("fonts parsed before any chart")
	}
	if err := Bars(testBars, "t", "y", filepath.Join(t.TempDir(), "bars.svg")); err != nil {
		t.Fatal(err)
	}
	if fonts.handler == nil {
		t.Error("a chart was drawn without parsing the fonts")
	}
}
