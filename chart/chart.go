// Package chart draws pictures of saved results with gonum.org/v1/plot:
// the latency percentile spectrum, requests/s and p99 over time, and the
// server's RSS over time. It reads stats.Result only, after the run: it
// is never on the load's hot path.
//
// Each chart is written as SVG or PNG, chosen by the file's extension,
// about 8 × 4.5 inches (1200 × 675 pixels for PNG).
package chart

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"path/filepath"
	"strings"

	"github.com/pummel-dev/pummel/internal/wholefile"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/pummel-dev/pummel/stats"
)

// Chart size and resolution.
const (
	// Width and Height are the size of every chart.
	Width  = 8 * vg.Inch
	Height = 4.5 * vg.Inch
	// DPI is the resolution of PNG charts: 1200 × 675 pixels.
	DPI = 150
)

// Font sizes, in points.
const (
	titleSize  = 14
	labelSize  = 12
	tickSize   = 10.5
	legendSize = 11
	lineWidth  = 1.6
)

// svgFonts replaces the SVG's bare font family: Liberation Sans has the
// metrics of Arial, so a viewer without it still lays the text out right.
const (
	svgFont         = "font-family:Liberation Sans;"
	svgFontFallback = "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"
)

// Named is a result with the name its lines carry in legends and file
// names: usually the base name of its JSON file.
type Named struct {
	Name   string
	Result stats.Result
}

// newPlot returns a plot with pummel's title, axis labels and fonts.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	sans := font.Font{Typeface: "Liberation", Variant: "Sans"}
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sans, titleSize)
	p.Title.Padding = vg.Points(8)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, labelSize)
		a.Tick.Label.Font = font.From(sans, tickSize)
		a.Label.Padding = vg.Points(4)
		a.Tick.Marker = roundTicks{}
	}
	p.X.Label.Text, p.Y.Label.Text = x, y
	p.Legend.TextStyle.Font = font.From(sans, legendSize)
	p.Legend.Top = true
	p.Legend.ThumbnailWidth = vg.Points(24)
	p.Legend.Padding = vg.Points(2)
	p.Legend.XOffs, p.Legend.YOffs = -vg.Points(6), -vg.Points(4)
	p.Add(grid())
	return p
}

// grid returns light grid lines at the major ticks.
func grid() *plotter.Grid {
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{Y: 225}
	g.Horizontal.Color = color.Gray{Y: 225}
	return g
}

// palette holds the colors of a chart's lines and bars in order: gonum's
// seven dark colors, then three more, so that a chart of up to ten series
// (a tool comparison, say) gives each its own.
var palette = append(append([]color.Color(nil), plotutil.DarkColors...),
	color.RGBA{R: 0x00, G: 0x80, B: 0x80, A: 0xff}, // teal
	color.RGBA{R: 0x8c, G: 0x56, B: 0x2b, A: 0xff}, // brown
	color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}, // gray
)

// lineColor returns the color of the i-th line of a chart.
func lineColor(i int) color.Color {
	return palette[i%len(palette)]
}

// lineStyle is a solid line of the i-th color.
func lineStyle(i int) draw.LineStyle {
	return draw.LineStyle{Color: lineColor(i), Width: vg.Points(lineWidth)}
}

// save draws a chart with paint onto a canvas of the format path's
// extension names (.svg or .png) and writes it to path.
func save(path string, paint func(draw.Canvas)) error {
	return saveSized(path, Width, Height, paint)
}

// saveSized is save on a canvas of width w and height h.
func saveSized(path string, w, h vg.Length, paint func(draw.Canvas)) error {
	var c vg.CanvasWriterTo
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".svg":
		c = vgsvg.NewWith(vgsvg.UseWH(w, h))
	case ".png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(DPI))}
	default:
		return fmt.Errorf("chart %s: unknown format %q: name the file .svg or .png", path, ext)
	}
	paint(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return fmt.Errorf("chart %s: %w", path, err)
	}
	b := buf.Bytes()
	if _, ok := c.(*vgsvg.Canvas); ok {
		b = bytes.ReplaceAll(b, []byte(svgFont), []byte(svgFontFallback))
	}
	if err := wholefile.Write(path, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
		return fmt.Errorf("chart %s: %w", path, err)
	}
	return nil
}

// savePlot writes one plot to path.
func savePlot(p *plot.Plot, path string) error {
	return save(path, p.Draw)
}
