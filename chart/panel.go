package chart

import (
	"image/color"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// panel is one chart with two axes: a title, its items (lines, points,
// bars) drawn in the order added over a light grid, and a legend in a top
// corner of the data area.
type panel struct {
	Title string
	X, Y  axis
	items []item
	// legend lists the named items; LegendLeft puts it in the top left
	// corner, LegendXOffs from the data area's edge.
	legend      []legendEntry
	LegendLeft  bool
	LegendXOffs vg.Length
}

// item is something drawn in a panel's data area.
type item interface {
	// extent is the item's range in data units.
	extent() (xmin, xmax, ymin, ymax float64)
	// draw draws the item on the data area c of panel p.
	draw(c draw.Canvas, p *panel)
}

// thumbnail draws an item's sample in a legend entry's box.
type thumbnail interface {
	thumb(c *draw.Canvas, box vg.Rectangle)
}

// legendEntry is one line of a legend.
type legendEntry struct {
	name   string
	thumbs []thumbnail
}

// Axis, tick, title and legend dimensions.
var (
	tickLength   = vg.Points(8)
	axisWidth    = vg.Points(0.5)
	labelPadding = vg.Points(4)
	titlePadding = vg.Points(8)
	tickPadding  = vg.Points(2)
	thumbWidth   = vg.Points(24)
	legendPad    = vg.Points(2)
	legendYOffs  = vg.Points(4)
	gridColor    = color.Gray{Y: 225}
)

// newPanel returns an empty panel with pummel's title and axis labels.
func newPanel(title, x, y string) *panel {
	return &panel{Title: title, X: newAxis(x), Y: newAxis(y), LegendXOffs: -vg.Points(6)}
}

// add adds items to p, growing its axes' ranges to hold them.
func (p *panel) add(items ...item) {
	for _, it := range items {
		xmin, xmax, ymin, ymax := it.extent()
		p.X.extend(xmin, xmax)
		p.Y.extend(ymin, ymax)
		p.items = append(p.items, it)
	}
}

// addLegend names an entry of p's legend, drawn with the thumbnails of
// its items.
func (p *panel) addLegend(name string, thumbs ...thumbnail) {
	p.legend = append(p.legend, legendEntry{name, thumbs})
}

// margins are the space around a panel's data area.
type margins struct{ left, right, bottom, top vg.Length }

// margins returns the room p's title, axes and labels take around its
// data area.
func (p *panel) margins() margins {
	x, y := p.X.sanitized(), p.Y.sanitized()
	tickSty, labelSty, titleSty := textStyle(tickSize), textStyle(labelSize), textStyle(titleSize)
	var m margins
	if p.Title != "" {
		m.top = titleSty.Height(p.Title) + titlePadding
	}
	m.bottom = tickLength + tickPadding
	var lastX vg.Length
	if !x.NoTickLabels {
		for _, t := range x.ticks() {
			if !t.IsMinor() {
				m.bottom = max(m.bottom, tickLength+tickPadding+tickSty.Height(t.Label)+descent(tickSty))
				lastX = tickSty.Width(t.Label) / 2
			}
		}
	}
	if x.Label != "" {
		m.bottom += labelPadding + labelSty.Height(x.Label) + descent(labelSty)
	}
	m.left = tickLength + tickPadding
	for _, t := range y.ticks() {
		m.left = max(m.left, tickLength+tickPadding+tickSty.Width(t.Label))
	}
	if y.Label != "" {
		m.left += labelPadding + labelSty.Height(y.Label)
	}
	m.right = max(lastX+vg.Points(2), vg.Points(4))
	m.top = max(m.top, tickSty.Height("0")/2)
	return m
}

// drawPanels draws panels one above the other on c, pad apart, their data
// areas aligned left and right.
func drawPanels(c draw.Canvas, pad vg.Length, panels ...*panel) {
	ms := make([]margins, len(panels))
	var left, right vg.Length
	for i, p := range panels {
		ms[i] = p.margins()
		left, right = max(left, ms[i].left), max(right, ms[i].right)
	}
	n := vg.Length(len(panels))
	h := (c.Max.Y - c.Min.Y - pad*(n-1)) / n
	for i, p := range panels {
		top := c.Max.Y - vg.Length(i)*(h+pad)
		tile := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: c.Min.X, Y: top - h}, Max: vg.Point{X: c.Max.X, Y: top}}}
		area := vg.Rectangle{
			Min: vg.Point{X: tile.Min.X + left, Y: tile.Min.Y + ms[i].bottom},
			Max: vg.Point{X: tile.Max.X - right, Y: tile.Max.Y - ms[i].top},
		}
		p.draw(tile, draw.Canvas{Canvas: c.Canvas, Rectangle: area})
	}
}

// draw draws p on tile, its data area being area.
func (p *panel) draw(tile, area draw.Canvas) {
	saved := *p
	defer func() { p.X, p.Y = saved.X, saved.Y }()
	p.X, p.Y = p.X.sanitized(), p.Y.sanitized()
	p.drawGrid(area)
	for _, it := range p.items {
		it.draw(area, p)
	}
	p.drawXAxis(tile, area)
	p.drawYAxis(tile, area)
	if p.Title != "" {
		sty := textStyle(titleSize)
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		tile.FillText(sty, vg.Point{X: (area.Min.X + area.Max.X) / 2, Y: tile.Max.Y}, p.Title)
	}
	p.drawLegend(area)
}

// x and y return the place of a data point on the data area c.
func (p *panel) x(c draw.Canvas, v float64) vg.Length { return p.X.at(v, c.Min.X, c.Max.X) }
func (p *panel) y(c draw.Canvas, v float64) vg.Length { return p.Y.at(v, c.Min.Y, c.Max.Y) }

// drawGrid draws light lines across the data area at the major ticks.
func (p *panel) drawGrid(c draw.Canvas) {
	sty := draw.LineStyle{Color: gridColor, Width: axisWidth}
	for _, t := range p.X.ticks() {
		if !t.IsMinor() {
			x := p.x(c, t.Value)
			c.StrokeLine2(sty, x, c.Min.Y, x, c.Max.Y)
		}
	}
	for _, t := range p.Y.ticks() {
		if !t.IsMinor() {
			y := p.y(c, t.Value)
			c.StrokeLine2(sty, c.Min.X, y, c.Max.X, y)
		}
	}
}

// drawXAxis draws the x axis below the data area: line, ticks, their
// labels and the axis's label.
func (p *panel) drawXAxis(tile, c draw.Canvas) {
	a := &p.X
	axisSty := draw.LineStyle{Color: color.Black, Width: axisWidth}
	if !a.Nominal {
		c.StrokeLine2(axisSty, c.Min.X, c.Min.Y, c.Max.X, c.Min.Y)
	}
	sty := textStyle(tickSize)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
	for _, t := range a.ticks() {
		x := p.x(c, t.Value)
		if !a.Nominal {
			c.StrokeLine2(axisSty, x, c.Min.Y, x, c.Min.Y-tickLen(t))
		}
		if !t.IsMinor() && !a.NoTickLabels {
			c.FillText(sty, vg.Point{X: x, Y: c.Min.Y - tickLength - tickPadding}, t.Label)
		}
	}
	if a.Label != "" {
		ls := textStyle(labelSize)
		ls.XAlign, ls.YAlign = draw.XCenter, draw.YBottom
		c.FillText(ls, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: tile.Min.Y + descent(ls)}, a.Label)
	}
}

// drawYAxis draws the y axis left of the data area.
func (p *panel) drawYAxis(tile, c draw.Canvas) {
	a := &p.Y
	axisSty := draw.LineStyle{Color: color.Black, Width: axisWidth}
	c.StrokeLine2(axisSty, c.Min.X, c.Min.Y, c.Min.X, c.Max.Y)
	sty := textStyle(tickSize)
	sty.XAlign, sty.YAlign = draw.XRight, draw.YCenter
	for _, t := range a.ticks() {
		y := p.y(c, t.Value)
		c.StrokeLine2(axisSty, c.Min.X, y, c.Min.X-tickLen(t), y)
		if !t.IsMinor() {
			c.FillText(sty, vg.Point{X: c.Min.X - tickLength - tickPadding, Y: y}, t.Label)
		}
	}
	if a.Label != "" {
		ls := textStyle(labelSize)
		ls.Rotation, ls.XAlign, ls.YAlign = math.Pi/2, draw.XCenter, draw.YTop
		c.FillText(ls, vg.Point{X: tile.Min.X, Y: (c.Min.Y + c.Max.Y) / 2}, a.Label)
	}
}

// descent is how far the font's descenders reach below text aligned by
// its bottom edge.
func descent(sty draw.TextStyle) vg.Length {
	return sty.FontExtents().Descent
}

// tickLen is the length of a tick: half for a minor one.
func tickLen(t tick) vg.Length {
	if t.IsMinor() {
		return tickLength / 2
	}
	return tickLength
}

// drawLegend draws p's legend in a top corner of the data area c: each
// entry's thumbnails, then its name.
func (p *panel) drawLegend(c draw.Canvas) {
	if len(p.legend) == 0 {
		return
	}
	sty := textStyle(legendSize)
	sty.YAlign = draw.YCenter
	var textWidth vg.Length
	for _, e := range p.legend {
		textWidth = max(textWidth, sty.Width(e.name))
	}
	rowHeight := sty.Height("Xg") + legendPad
	width := thumbWidth + 2*legendPad + textWidth
	x := c.Max.X + p.LegendXOffs - width
	if p.LegendLeft {
		x = c.Min.X + p.LegendXOffs
	}
	y := c.Max.Y - legendYOffs
	for _, e := range p.legend {
		box := vg.Rectangle{Min: vg.Point{X: x, Y: y - rowHeight}, Max: vg.Point{X: x + thumbWidth, Y: y}}
		for _, t := range e.thumbs {
			t.thumb(&c, box)
		}
		c.FillText(sty, vg.Point{X: x + thumbWidth + 2*legendPad, Y: y - rowHeight/2}, e.name)
		y -= rowHeight
	}
}
