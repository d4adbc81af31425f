package chart

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/pummel-dev/pummel/stats"
)

// The spectrum's x axis places percentile p at log10(1/(1−p)), the
// log-scaled 1/(1−p) of HdrHistogram's plotter: x counts the nines (0 for
// 0%, 1 for 90%, 2 for 99%, …). The axis itself is linear, as gonum/plot
// mis-centres the label of a log-scaled axis.
const (
	// maxNines is the last percentile drawn: 99.999%.
	maxNines = 5
	// pointsPerNine is how finely the percentiles are sampled.
	pointsPerNine = 120
)

// PercentileSpectrum draws the latency of each result against the
// percentile, 0% to 99.999% on HdrHistogram's "percentile spectrum" axis,
// one line per result, overlaid, with a legend. A line ends where its
// histogram runs out of samples (99.9% for 1,000 requests): beyond, every
// percentile is the maximum. Results without latencies are left out; it
// is an error if none has any.
func PercentileSpectrum(results []Named, path string) error {
	p := newPanel("Latency by percentile", "percentile (each step to the right adds a nine)", "latency (ms)")
	p.LegendLeft, p.LegendXOffs = true, vg.Points(12)
	xmax := 1.0
	drawn := 0
	for i, r := range results {
		pts, err := spectrum(r.Result)
		if err != nil {
			return fmt.Errorf("chart %s: %s: %w", path, r.Name, err)
		}
		if len(pts) == 0 {
			continue
		}
		addLine(p, pts, lineStyle(i), r.Name)
		xmax = max(xmax, pts[len(pts)-1].X)
		drawn++
	}
	if drawn == 0 {
		return fmt.Errorf("chart %s: no latencies recorded", path)
	}
	p.X.Min, p.X.Max = 0, math.Ceil(xmax-1e-9)
	p.X.Ticker = percentileTicks(p.X.Max)
	p.Y.Min, p.Y.Max = 0, p.Y.Max*1.05
	return savePanel(p, path)
}

// spectrum returns r's latency in milliseconds at percentiles evenly
// spaced on the spectrum axis, or nothing if r recorded none.
func spectrum(r stats.Result) (xys, error) {
	h, err := stats.DecodeHistogram(r.LatencyHistogram)
	if err != nil {
		return nil, err
	}
	n := h.TotalCount()
	if n == 0 {
		return nil, nil
	}
	// Past 1−1/n every percentile is the maximum: stop there.
	last := min(max(math.Log10(float64(n)), 1), maxNines)
	steps := int(math.Ceil(last * pointsPerNine))
	pts := make(xys, steps+1)
	percents := make([]float64, steps+1)
	for i := range pts {
		pts[i].X = last * float64(i) / float64(steps)
		percents[i] = 100 * (1 - math.Pow(10, -pts[i].X))
	}
	if last < maxNines {
		percents[steps] = 100 // the maximum, where the line ends
	}
	for i, ns := range h.ValueAtPercentilesSlice(percents) {
		pts[i].Y = float64(ns) / 1e6
	}
	return pts, nil
}

// percentileTicks labels the spectrum axis up to xmax nines: 0%, 50%,
// 90%, 99%, 99.9%, …, with unlabelled minor ticks between, where a
// log-scaled 1/(1−p) axis would have them.
func percentileTicks(xmax float64) constTicks {
	ticks := constTicks{{Value: 0, Label: "0%"}, {Value: math.Log10(2), Label: "50%"}}
	for nines := 1; float64(nines) <= xmax; nines++ {
		ticks = append(ticks, tick{Value: float64(nines), Label: percentLabel(nines)})
	}
	for x := 0.0; x < xmax; x++ {
		for m := 2.0; m < 10; m++ {
			if x > 0 || m > 2 {
				ticks = append(ticks, tick{Value: x + math.Log10(m)})
			}
		}
	}
	return ticks
}

// percentLabel names the percentile with that many nines: 90%, 99%,
// 99.9%, …
func percentLabel(nines int) string {
	switch nines {
	case 1:
		return "90%"
	case 2:
		return "99%"
	}
	return "99." + strings.Repeat("9", nines-2) + "%"
}
