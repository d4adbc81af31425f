package chart

import (
	"math"
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
		ticks = append(ticks, tick{Value: v, Label: render.GroupThousands(strconv.FormatFloat(v, 'f', -1, 64))})
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
