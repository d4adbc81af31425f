package chart

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/pummel-dev/pummel/stats"
)

// minSlice is the shortest timeline entry drawn after the first, in
// seconds: the last entry may cover a few milliseconds, and one response
// in 7 ms would read as a fall to 140 requests/s.
const minSlice = 0.25

// Room above the data, as a share of its range, so that the legend in the
// top right corner of a panel stays clear of the lines: a little, and
// more per legend entry.
const (
	headroom         = 1.1
	headroomPerEntry = 0.18
)

// Timeline draws a result's per-second timeline as two panels sharing the
// time axis, in seconds from the start of the measurement: requests/s
// above (with the target rate of open-loop stages dashed, when the
// timeline spans the schedule, and both lines in the legend) and the p50
// and p99 latency of each second below. A second without responses
// leaves a gap in the latency lines. It is an error if r has no timeline.
func Timeline(r stats.Result, path string) error {
	if len(r.Timeline) == 0 {
		return fmt.Errorf("chart %s: the result has no timeline", path)
	}
	end := r.Timeline[len(r.Timeline)-1].At
	top := newPanel("Requests/s and latency, second by second", "", "requests/s")
	entries, achieved := 0, ""
	if target := targetRate(r.Config, end); target != nil {
		// Two lines: both named, so that neither is taken for the other.
		addLine(top, target, dashed(color.Gray{Y: 110}), "target")
		entries, achieved = 2, "achieved"
	}
	addSteps(top, perSecond(r.Timeline, rate), achieved, lineStyle(2))
	fitY(top, entries)
	bottom := newPanel("", "time (s)", "latency (ms)")
	addSteps(bottom, perSecond(r.Timeline, latency(func(l stats.SecondLatency) float64 { return l.P50 })), "p50", lineStyle(1))
	addSteps(bottom, perSecond(r.Timeline, latency(func(l stats.SecondLatency) float64 { return l.P99 })), "p99", lineStyle(0))
	fitY(bottom, 2)
	top.X.Min, top.X.Max = 0, end
	bottom.X.Min, bottom.X.Max = 0, end
	top.X.NoTickLabels = true // the panel below labels the shared time axis
	return save(path, func(c draw.Canvas) { stack(c, top, bottom) })
}

// fitY starts p's y axis at 0 and leaves room above the data for a
// legend of that many entries.
func fitY(p *panel, entries int) {
	p.Y.Min, p.Y.Max = 0, max(p.Y.Max, 1e-3)*(headroom+headroomPerEntry*float64(entries))
}

// rate is a second's responses per second.
func rate(s stats.Second, secs float64) (float64, bool) {
	return float64(s.Requests) / secs, true
}

// latency picks one latency figure of a second, in milliseconds; a second
// without responses has none.
func latency(pick func(stats.SecondLatency) float64) func(stats.Second, float64) (float64, bool) {
	return func(s stats.Second, _ float64) (float64, bool) {
		return pick(s.Latency) / 1e3, s.Requests > 0
	}
}

// perSecond turns a timeline into step lines of value, one segment per
// stretch of seconds that have a value. Each second covers the time from
// the previous entry's At to its own; a last slice shorter than minSlice
// is left out, unless it is the whole run.
func perSecond(timeline []stats.Second, value func(s stats.Second, secs float64) (float64, bool)) []xys {
	var segments []xys
	var cur xys
	from := 0.0
	for _, s := range timeline {
		secs := s.At - from
		v, ok := 0.0, false
		if secs >= minSlice || secs > 0 && from == 0 {
			v, ok = value(s, secs)
		}
		switch {
		case !ok && len(cur) > 0:
			segments, cur = append(segments, cur), nil
		case ok && len(cur) == 0:
			cur = xys{{X: from, Y: v}, {X: s.At, Y: v}}
		case ok:
			cur = append(cur, xy{X: s.At, Y: v})
		}
		from = s.At
	}
	if len(cur) > 0 {
		segments = append(segments, cur)
	}
	return segments
}

// targetRate returns the open-loop schedule's rate as a line through each
// stage's start and end, rising or falling along a ramp's, or nil when
// there is none or it does not span the timeline (several runs put end
// to end).
func targetRate(c stats.Config, end float64) xys {
	stages := float64(len(c.Rates))
	if stages == 0 || c.DurationS <= 0 || math.Abs(stages*c.DurationS-end) > 1.5 {
		return nil
	}
	var pts xys
	for i, r := range c.Rates {
		from, to := r, r
		if i < len(c.Ramps) {
			from, to = c.Ramps[i].From, c.Ramps[i].To
		}
		pts = append(pts, xy{X: float64(i) * c.DurationS, Y: from}, xy{X: float64(i+1) * c.DurationS, Y: to})
	}
	return pts
}

// addSteps adds step lines in one style to p, named once in its legend
// unless name is empty.
func addSteps(p *panel, segments []xys, name string, style draw.LineStyle) {
	for i, pts := range segments {
		l := &line{pts: pts, style: style, step: true}
		p.add(l)
		if i == 0 && name != "" {
			p.addLegend(name, l)
		}
	}
}

// dashed is a dashed line of color c.
func dashed(c color.Color) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(lineWidth), Dashes: []vg.Length{vg.Points(6), vg.Points(4)}}
}

// stack draws panels one above the other on c, their data areas aligned,
// with a margin around them.
func stack(c draw.Canvas, panels ...*panel) {
	pad := vg.Points(6)
	c = draw.Crop(c, pad, -2*pad, pad, -pad)
	drawPanels(c, pad, panels...)
}
