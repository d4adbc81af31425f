package chart

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Bar is one bar of a grouped bar chart: a series' value in a group, with
// the range it spread over (equal to Value when there is none).
type Bar struct {
	Group, Series    string
	Value, Low, High float64
}

// Bars draws a grouped bar chart to path (.svg or .png): one group of bars
// per Group, in the order groups first appear, each bar one Series, with
// its Low–High range as an error bar. A series missing from a group
// leaves a gap.
func Bars(bars []Bar, title, ylabel, path string) error {
	if len(bars) == 0 {
		return fmt.Errorf("chart %s: no bars", path)
	}
	groups, series := order(bars, func(b Bar) string { return b.Group }), order(bars, func(b Bar) string { return b.Series })
	p := newPanel(title, "", ylabel)
	p.X.Ticker, p.X.Nominal = nominal(groups), true
	// Room for the outer bars of the first and last groups, and above the
	// highest bar for the legend.
	p.X.Min, p.X.Max = -0.5, float64(len(groups))-0.5
	p.Y.Min, p.Y.Max = 0, 1.3*highest(bars)
	width := vg.Points(min(40, 360/float64(len(groups)*len(series))))
	for i, s := range series {
		values, errs := barValues(bars, groups, s)
		bc := &barSeries{values: values, width: width, offset: barOffset(i, len(series), width), color: lineColor(i)}
		p.add(bc)
		p.addLegend(s, bc)
		if r := rangesOf(values, errs, bc.offset); len(r.bars) > 0 {
			p.add(r)
		}
	}
	return savePanel(p, path)
}

// nominal labels an axis with names at 0, 1, 2, …
func nominal(names []string) constTicks {
	ticks := make(constTicks, len(names))
	for i, n := range names {
		ticks[i] = tick{Value: float64(i), Label: n}
	}
	return ticks
}

// highest is the top of the highest bar or range.
func highest(bars []Bar) float64 {
	top := 0.0
	for _, b := range bars {
		top = max(top, b.Value, b.High)
	}
	return top
}

// order returns the distinct keys of bars in the order they first appear.
func order(bars []Bar, key func(Bar) string) []string {
	var keys []string
	for _, b := range bars {
		if k := key(b); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// barValues returns one series' values per group and their ranges below
// and above the value (zero where the series has no bar in a group).
func barValues(bars []Bar, groups []string, series string) ([]float64, []yErr) {
	values, errs := make([]float64, len(groups)), make([]yErr, len(groups))
	for _, b := range bars {
		if b.Series != series {
			continue
		}
		g := slices.Index(groups, b.Group)
		values[g] = b.Value
		errs[g].Low, errs[g].High = max(b.Value-b.Low, 0), max(b.High-b.Value, 0)
	}
	return values, errs
}

// barOffset is how far series i of n draws its bars from the centre of
// their group: the n bars of a group side by side, width apart.
func barOffset(i, n int, width vg.Length) vg.Length {
	return width * vg.Length(2*i+1-n) / 2
}

// yErr is how far a bar's range reaches below and above its value.
type yErr struct{ Low, High float64 }

// rangesOf returns the ranges of one series' bars: one for each bar with
// a range, at the series' offset.
func rangesOf(values []float64, errs []yErr, offset vg.Length) *ranges {
	r := &ranges{offset: offset}
	for i, v := range values {
		if errs[i].Low > 0 || errs[i].High > 0 {
			r.bars = append(r.bars, rangeBar{x: float64(i), low: v - errs[i].Low, high: v + errs[i].High})
		}
	}
	return r
}

// rangeBar is one bar's range, at its group's x.
type rangeBar struct{ x, low, high float64 }

// rangeColor is the color of the ranges' lines.
var rangeColor = color.Gray{Y: 60}

// ranges draws the ranges of one series' bars, shifted by the series'
// offset: a vertical line with a cap at each end.
type ranges struct {
	bars   []rangeBar
	offset vg.Length
}

func (r *ranges) draw(c draw.Canvas, p *panel) {
	style := draw.LineStyle{Color: rangeColor, Width: vg.Points(1)}
	capWidth := vg.Points(4)
	for _, b := range r.bars {
		x := p.x(c, b.x) + r.offset
		lo, hi := p.y(c, b.low), p.y(c, b.high)
		c.StrokeLine2(style, x, lo, x, hi)
		c.StrokeLine2(style, x-capWidth, lo, x+capWidth, lo)
		c.StrokeLine2(style, x-capWidth, hi, x+capWidth, hi)
	}
}

// extent counts the ranges' tops in the Y axis's extent.
func (r *ranges) extent() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, b := range r.bars {
		xmin, xmax = min(xmin, b.x), max(xmax, b.x)
		ymin, ymax = min(ymin, b.low), max(ymax, b.high)
	}
	return xmin, xmax, ymin, ymax
}
