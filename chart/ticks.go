package chart

import (
	"math"
	"slices"
	"strconv"

	"github.com/pummel-dev/pummel/stats/render"
)

// majorTicks is about how many labelled ticks an axis gets.
const majorTicks = 8

// roundTicks is a ticker marking an axis at round values (1, 2, 2.5
// or 5 times a power of ten apart, four to nine of them) labelled with no
// more decimals than each needs and thousands grouped ("12,000"), and
// minor ticks halfway between.
// gonum/plot's DefaultTicks gives as few as three, labelled "250.00".
type roundTicks struct{}

// Ticks returns the ticks between min and max.
func (roundTicks) Ticks(min, max float64) []tick {
	if !(max > min) {
		return []tick{{Value: min, Label: strconv.FormatFloat(min, 'g', 4, 64)}}
	}
	step := roundStep((max - min) / majorTicks)
	scale := math.Pow10(decimalsOf(step))
	var ticks []tick
	for i := math.Ceil(min/step - 1e-9); i*step <= max+step*1e-9; i++ {
		v := math.Round(i*step*scale) / scale
		if v == 0 {
			v = 0 // never "-0"
		}
		ticks = append(ticks, tick{Value: v, Label: numberLabel(v)})
		if half := v + step/2; half <= max {
			ticks = append(ticks, tick{Value: half})
		}
	}
	return ticks
}

// roundStep returns the smallest of 1, 2, 2.5, 5 and 10 times a power of
// ten that is at least raw.
func roundStep(raw float64) float64 {
	mag := math.Pow10(int(math.Floor(math.Log10(raw))))
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= raw*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// decimalsOf returns how many decimals multiples of step need.
func decimalsOf(step float64) int {
	d := 0
	for ; d < 12; d++ {
		scaled := step * math.Pow10(d)
		if math.Abs(scaled-math.Round(scaled)) < 1e-6*scaled {
			break
		}
	}
	return d
}

// numberLabel writes a tick's value with no more decimals than it needs
// and thousands grouped ("0.5", "12,000").
func numberLabel(v float64) string {
	return render.GroupThousands(strconv.FormatFloat(v, 'f', -1, 64))
}

// logTicks is a ticker for a log axis: labelled ticks at 1, 2 and 5 times
// the powers of ten (0.5, 1, 2, 5, 10, 20, …), written as roundTicks
// writes them, and unlabelled ones at the other whole multiples. An axis
// of many decades is labelled at the powers of ten alone (every other
// one, or fewer, when they would crowd it); one of less than a decade at
// every whole multiple (2, 3, 4, 5), or, when even that gives fewer than
// three labels, at the round values of a linear axis.
type logTicks struct{}

// Ticks returns the ticks between min and max.
func (logTicks) Ticks(min, max float64) []tick {
	if !(min > 0 && max > min) {
		return roundTicks{}.Ticks(min, max)
	}
	for _, multiples := range [][]int{{1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 5}} {
		ticks := powerTicks(min, max, multiples, 1)
		if n := labelled(ticks); n < 3 {
			return roundTicks{}.Ticks(min, max)
		} else if n <= majorTicks {
			return ticks
		}
	}
	for every := 1; ; every++ {
		if ticks := powerTicks(min, max, []int{1}, every); labelled(ticks) <= majorTicks {
			return ticks
		}
	}
}

// powerTicks marks m×10^e between min and max, labelled when m is one of
// multiples and e a multiple of every. The rest are minor ticks: at each
// whole m when every is 1, at the powers of ten otherwise.
func powerTicks(min, max float64, multiples []int, every int) []tick {
	var ticks []tick
	for e := int(math.Floor(math.Log10(min))); e <= int(math.Ceil(math.Log10(max))); e++ {
		for m := 1; m < 10; m++ {
			v := timesPow10(m, e)
			if v < min*(1-1e-9) || v > max*(1+1e-9) || every > 1 && m > 1 {
				continue
			}
			t := tick{Value: v}
			if slices.Contains(multiples, m) && e%every == 0 {
				t.Label = numberLabel(v)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// timesPow10 returns m×10^e, as near as a float64 gets (0.02, not
// 0.020000000000000004).
func timesPow10(m, e int) float64 {
	if e < 0 {
		return float64(m) / math.Pow10(-e)
	}
	return float64(m) * math.Pow10(e)
}

// wholeBelow returns the greatest m×10^e at or below v > 0, for a whole
// m from 1 to 9: where a log axis from v gets a tick.
func wholeBelow(v float64) float64 {
	e := int(math.Floor(math.Log10(v)))
	m := int(math.Floor(v / timesPow10(1, e) * (1 + 1e-9)))
	return timesPow10(max(m, 1), e)
}

// wholeAbove returns the least m×10^e at or above v > 0, for a whole m
// from 1 to 10.
func wholeAbove(v float64) float64 {
	e := int(math.Floor(math.Log10(v)))
	m := int(math.Ceil(v / timesPow10(1, e) * (1 - 1e-9)))
	return timesPow10(min(m, 10), e)
}

// labelled counts the labelled ticks.
func labelled(ticks []tick) int {
	n := 0
	for _, t := range ticks {
		if !t.IsMinor() {
			n++
		}
	}
	return n
}
