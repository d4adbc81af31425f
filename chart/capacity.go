package chart

import (
	"cmp"
	"fmt"
	"github.com/pummel-dev/pummel/stats/render"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/threshold"
)

// Capacity draws a capacity search (`pummel capacity -o capacity.json`)
// as the latency-vs-load curve of benchmark write-ups, from measured
// steps only: above, p50, p90, p99 and p99.9 against the offered rate on
// a log latency axis, each latency threshold of the SLO as a dashed
// horizontal line and the capacity as a vertical one; below, the achieved
// rate against the offered rate, with the line where they are equal. The
// rate axes are log scaled when the steps' rates span more than 10×, as
// an exponential climb's do (10 to 640/s). It is an error if r holds no
// step measured at a rate.
func Capacity(r stats.Result, path string) error {
	steps := rateSteps(r.Steps)
	if len(steps) == 0 {
		return fmt.Errorf("chart %s: no capacity steps", path)
	}
	logRate := logRates(steps)
	lat, ach := latencyPanel(steps, r.Capacity, logRate), achievedPanel(steps, logRate)
	return saveSized(path, Width, 2*Height, func(c draw.Canvas) { drawPanels(c, vg.Points(18), lat, ach) })
}

// logRates reports whether the steps' rates span more than 10×: a
// linear axis would crowd the lower ones against its left edge.
func logRates(steps []stats.Result) bool {
	return steps[len(steps)-1].TargetRate > 10*steps[0].TargetRate
}

// rateLabel names the offered rate axis.
func rateLabel(log bool) string {
	if log {
		return "offered rate (requests/s, log scale)"
	}
	return "offered rate (requests/s)"
}

// logScale makes a log scaled, with ticks at 1, 2 and 5 times the powers
// of ten.
func logScale(a *axis) {
	a.Log, a.Ticker = true, logTicks{}
}

// latencyPanel draws the percentiles of each step against its offered
// rate, with the SLO's latency bounds and the capacity found.
func latencyPanel(steps []stats.Result, c *stats.Capacity, logRate bool) *panel {
	lat := newPanel("Latency against offered load", rateLabel(logRate), "latency (ms, log scale)")
	lat.LegendLeft, lat.LegendXOffs = true, vg.Points(12)
	logScale(&lat.Y)
	if logRate {
		logScale(&lat.X)
	}
	for i, p := range capacityPercentiles {
		line, points := linePoints(latencyPoints(steps, p.pick), i)
		lat.add(line, points)
		lat.addLegend(p.name, line, points)
	}
	if c != nil {
		xmin, xmax := steps[0].TargetRate, steps[len(steps)-1].TargetRate
		for i, b := range latencyBounds(c.Thresholds) {
			addHLine(lat, xmin, xmax, b.ms, "SLO "+b.expr, lineColor(len(capacityPercentiles)+i), true)
		}
	}
	// Out to whole multiples of powers of ten, so that a range within a
	// decade (1.2 to 5.8 ms) is labelled at both ends (1 to 6 ms).
	lat.Y.Min, lat.Y.Max = wholeBelow(lat.Y.Min), wholeAbove(lat.Y.Max)
	if c != nil && c.Rate != nil {
		addVLine(lat, *c.Rate, "capacity "+render.FormatRateWhole(*c.Rate)+"/s")
	}
	return lat
}

// achievedPanel draws the achieved rate of each step against its offered
// rate: from 0 on linear axes, log-log on log ones, where achieved =
// offered stays a straight line.
func achievedPanel(steps []stats.Result, logRate bool) *panel {
	label := "achieved rate (requests/s)"
	if logRate {
		label = "achieved rate (requests/s, log scale)"
	}
	ach := newPanel("Achieved against offered rate", rateLabel(logRate), label)
	ach.LegendLeft, ach.LegendXOffs = true, vg.Points(12)
	line, points := linePoints(achievedPoints(steps), 0)
	ach.add(line, points)
	ach.addLegend("achieved", line, points)
	addSlope(ach, steps[0].TargetRate, steps[len(steps)-1].TargetRate)
	if logRate {
		logScale(&ach.X)
		logScale(&ach.Y)
	} else {
		ach.Y.Min = 0
	}
	return ach
}

// linePoints is a line of the i-th style through pts, with a dot at
// each.
func linePoints(pts xys, i int) (*line, *dots) {
	return &line{pts: pts, style: lineStyle(i)}, &dots{pts: pts, color: lineColor(i)}
}

// capacityPercentiles are the latency lines of the capacity chart.
var capacityPercentiles = []struct {
	name string
	pick func(stats.Latency) float64
}{
	{"p50", func(l stats.Latency) float64 { return l.P50 }},
	{"p90", func(l stats.Latency) float64 { return l.P90 }},
	{"p99", func(l stats.Latency) float64 { return l.P99 }},
	{"p99.9", func(l stats.Latency) float64 { return l.P999 }},
}

// rateSteps are the steps measured at a rate with a latency, by rate; of
// several at one rate (a confirmation), the last.
func rateSteps(all []stats.Result) []stats.Result {
	var steps []stats.Result
	for _, st := range all {
		if st.TargetRate > 0 && st.Latency != nil {
			steps = append(steps, st)
		}
	}
	slices.SortStableFunc(steps, func(a, b stats.Result) int { return cmp.Compare(a.TargetRate, b.TargetRate) })
	var out []stats.Result
	for _, st := range steps {
		if n := len(out); n > 0 && out[n-1].TargetRate == st.TargetRate {
			out[n-1] = st
			continue
		}
		out = append(out, st)
	}
	return out
}

// latencyPoints are one percentile of every step, in ms (at least 1 µs,
// for the log axis).
func latencyPoints(steps []stats.Result, pick func(stats.Latency) float64) xys {
	pts := make(xys, len(steps))
	for i, st := range steps {
		pts[i] = xy{X: st.TargetRate, Y: max(pick(*st.Latency), 1) / 1e3}
	}
	return pts
}

func achievedPoints(steps []stats.Result) xys {
	pts := make(xys, len(steps))
	for i, st := range steps {
		pts[i] = xy{X: st.TargetRate, Y: st.AchievedRate}
	}
	return pts
}

// latencyBound is a latency threshold of the SLO.
type latencyBound struct {
	expr string
	ms   float64
}

// latencyBounds reads the latency thresholds among the SLO's.
func latencyBounds(slo []string) []latencyBound {
	var out []latencyBound
	for _, text := range slo {
		e, err := threshold.Parse(text)
		if err != nil {
			continue
		}
		if us, ok := e.LatencyBound(); ok {
			out = append(out, latencyBound{expr: text, ms: us / 1e3})
		}
	}
	return out
}

// addHLine draws a horizontal line at y across [x0, x1], with a legend.
func addHLine(p *panel, x0, x1, y float64, label string, c color.Color, dashed bool) {
	style := lineStyle(0)
	style.Color = c
	if dashed {
		style.Dashes = []vg.Length{vg.Points(6), vg.Points(4)}
	}
	addLine(p, xys{{X: x0, Y: y}, {X: x1, Y: y}}, style, label)
}

// addVLine marks x on p from its lowest to its highest value.
func addVLine(p *panel, x float64, label string) {
	lo, hi := p.Y.Min, p.Y.Max
	if lo <= 0 {
		lo = math.SmallestNonzeroFloat64
	}
	style := lineStyle(len(palette) - 1)
	style.Dashes = []vg.Length{vg.Points(2), vg.Points(3)}
	addLine(p, xys{{X: x, Y: lo}, {X: x, Y: hi}}, style, label)
}

// addSlope draws achieved = offered over [x0, x1].
func addSlope(p *panel, x0, x1 float64) {
	style := lineStyle(len(palette) - 1)
	style.Dashes = []vg.Length{vg.Points(6), vg.Points(4)}
	addLine(p, xys{{X: x0, Y: x0}, {X: x1, Y: x1}}, style, "achieved = offered")
}

// addLine adds a line through pts to p, named in its legend.
func addLine(p *panel, pts xys, style draw.LineStyle, label string) {
	l := &line{pts: pts, style: style}
	p.add(l)
	p.addLegend(label, l)
}
