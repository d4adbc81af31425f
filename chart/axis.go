package chart

import (
	"math"

	"gonum.org/v1/plot/vg"
)

// xy is a point of a line, in data units.
type xy struct{ X, Y float64 }

// xys is the points of a line.
type xys []xy

// tick is a mark on an axis; a minor one has no label.
type tick struct {
	Value float64
	Label string
}

// IsMinor reports whether t is a minor tick: unlabelled, shorter, without
// a grid line.
func (t tick) IsMinor() bool { return t.Label == "" }

// ticker chooses the ticks of an axis from its range.
type ticker interface {
	Ticks(min, max float64) []tick
}

// constTicks is a ticker of fixed ticks.
type constTicks []tick

// Ticks returns the ticks, whatever the range.
func (t constTicks) Ticks(_, _ float64) []tick { return t }

// axis is one axis of a panel: its range (grown by every line added, or
// set), its label and ticks.
type axis struct {
	Min, Max float64
	Label    string
	Ticker   ticker
	// Log scales the axis by log10; its range must be above 0.
	Log bool
	// NoTickLabels draws the ticks unlabelled (a panel above another,
	// sharing its axis).
	NoTickLabels bool
	// Nominal draws tick labels only, without the axis line or ticks
	// (the groups of a bar chart).
	Nominal bool
}

// newAxis returns an axis with an empty range that the first line sets.
func newAxis(label string) axis {
	return axis{Min: math.Inf(1), Max: math.Inf(-1), Label: label, Ticker: roundTicks{}}
}

// extend grows the axis's range to hold lo and hi.
func (a *axis) extend(lo, hi float64) {
	a.Min, a.Max = min(a.Min, lo), max(a.Max, hi)
}

// sanitized returns a copy of a with a drawable range: [0, 1] when
// nothing set it, widened around a single value, above 0 when log.
func (a axis) sanitized() axis {
	if math.IsInf(a.Min, 0) || math.IsInf(a.Max, 0) || math.IsNaN(a.Min) || math.IsNaN(a.Max) || a.Min > a.Max {
		a.Min, a.Max = 0, 1
		if a.Log {
			a.Min = 0.1
		}
	}
	if a.Log && a.Min <= 0 {
		a.Min = min(a.Max/10, 1e-3)
	}
	if a.Min == a.Max {
		if a.Log {
			a.Min, a.Max = a.Min/10, a.Max*10
		} else {
			a.Min, a.Max = a.Min-1, a.Max+1
		}
	}
	return a
}

// norm returns v's place on the sanitized axis, 0 at Min and 1 at Max.
func (a *axis) norm(v float64) float64 {
	if a.Log {
		lo := math.Log10(a.Min)
		return (math.Log10(v) - lo) / (math.Log10(a.Max) - lo)
	}
	return (v - a.Min) / (a.Max - a.Min)
}

// at returns v's place on the sanitized axis drawn from lo to hi.
func (a *axis) at(v float64, lo, hi vg.Length) vg.Length {
	return lo + vg.Length(a.norm(v))*(hi-lo)
}

// ticks returns the ticks of the sanitized axis within its range.
func (a *axis) ticks() []tick {
	var out []tick
	for _, t := range a.Ticker.Ticks(a.Min, a.Max) {
		if t.Value >= a.Min-1e-9*math.Abs(a.Max-a.Min) && t.Value <= a.Max+1e-9*math.Abs(a.Max-a.Min) {
			out = append(out, t)
		}
	}
	return out
}
