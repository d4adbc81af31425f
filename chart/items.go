package chart

import (
	"image/color"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// line is a line through points, clipped to the data area. A step line
// holds each point's value from the previous point's x to its own.
type line struct {
	pts   xys
	style draw.LineStyle
	step  bool
}

func (l *line) extent() (xmin, xmax, ymin, ymax float64) { return l.pts.extent() }

func (l *line) draw(c draw.Canvas, p *panel) {
	c.StrokeLines(l.style, c.ClipLinesXY(l.points(c, p))...)
}

// points returns the line's points on the data area c of p, with a
// corner before each point of a step line.
func (l *line) points(c draw.Canvas, p *panel) []vg.Point {
	var pts []vg.Point
	for i, pt := range l.pts {
		x, y := p.x(c, pt.X), p.y(c, pt.Y)
		if prev := len(pts) - 1; l.step && i > 0 && pts[prev].Y != y {
			pts = append(pts, vg.Point{X: pts[prev].X, Y: y})
		}
		pts = append(pts, vg.Point{X: x, Y: y})
	}
	return pts
}

func (l *line) thumb(c *draw.Canvas, box vg.Rectangle) {
	y := (box.Min.Y + box.Max.Y) / 2
	c.StrokeLine2(l.style, box.Min.X, y, box.Max.X, y)
}

// extent returns the range of the points.
func (pts xys) extent() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, pt := range pts {
		xmin, xmax = min(xmin, pt.X), max(xmax, pt.X)
		ymin, ymax = min(ymin, pt.Y), max(ymax, pt.Y)
	}
	return xmin, xmax, ymin, ymax
}

// dots marks points with circles.
type dots struct {
	pts   xys
	color color.Color
}

// dotRadius is the radius of a dot.
var dotRadius = vg.Points(2.5)

func (d *dots) extent() (xmin, xmax, ymin, ymax float64) { return d.pts.extent() }

func (d *dots) style() draw.GlyphStyle {
	return draw.GlyphStyle{Color: d.color, Radius: dotRadius, Shape: draw.CircleGlyph{}}
}

func (d *dots) draw(c draw.Canvas, p *panel) {
	for _, pt := range d.pts {
		c.DrawGlyph(d.style(), vg.Point{X: p.x(c, pt.X), Y: p.y(c, pt.Y)})
	}
}

func (d *dots) thumb(c *draw.Canvas, box vg.Rectangle) {
	c.DrawGlyphNoClip(d.style(), vg.Point{X: (box.Min.X + box.Max.X) / 2, Y: (box.Min.Y + box.Max.Y) / 2})
}

// barSeries is one series of a grouped bar chart: a bar from 0 to each
// value, at x 0, 1, 2, … shifted by offset.
type barSeries struct {
	values []float64
	width  vg.Length
	offset vg.Length
	color  color.Color
}

func (b *barSeries) extent() (xmin, xmax, ymin, ymax float64) {
	ymin, ymax = 0, 0
	for _, v := range b.values {
		ymin, ymax = min(ymin, v), max(ymax, v)
	}
	return 0, float64(len(b.values) - 1), ymin, ymax
}

func (b *barSeries) draw(c draw.Canvas, p *panel) {
	for i, v := range b.values {
		x := p.x(c, float64(i)) + b.offset
		y0, y1 := p.y(c, 0), p.y(c, v)
		l, r := x-b.width/2, x+b.width/2
		c.FillPolygon(b.color, c.ClipPolygonXY([]vg.Point{{X: l, Y: y0}, {X: r, Y: y0}, {X: r, Y: y1}, {X: l, Y: y1}}))
	}
}

func (b *barSeries) thumb(c *draw.Canvas, box vg.Rectangle) {
	pad := vg.Points(1)
	c.FillPolygon(b.color, []vg.Point{
		{X: box.Min.X, Y: box.Min.Y + pad}, {X: box.Max.X, Y: box.Min.Y + pad},
		{X: box.Max.X, Y: box.Max.Y - pad}, {X: box.Min.X, Y: box.Max.Y - pad},
	})
}
