// Package chart draws pictures of saved results with gonum.org/v1/plot's
// low-level drawing packages (vg, its SVG and PNG canvases, fonts) and
// its own axes, ticks and legends: the latency percentile spectrum, requests/s and p99 over time, and the
// server's RSS over time. It reads stats.Result only, after the run: it
// is never on the load's hot path. It does not import gonum.org/v1/plot
// itself, whose package init parses a dozen fonts at every program start:
// the fonts are parsed at the first chart drawn.
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

// svgFontFallback replaces the SVG's bare font family svgFont: Liberation
// Sans has the metrics of Arial, so a viewer without it still lays the text
// out right.
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

// palette holds the colors of a chart's lines and bars in order: gonum's
// seven dark colors (plotutil.DarkColors), then three more, so that a
// chart of up to ten series (a tool comparison, say) gives each its own.
var palette = []color.Color{
	color.RGBA{R: 238, G: 46, B: 47, A: 0xff},
	color.RGBA{R: 0, G: 140, B: 72, A: 0xff},
	color.RGBA{R: 24, G: 90, B: 169, A: 0xff},
	color.RGBA{R: 244, G: 125, B: 35, A: 0xff},
	color.RGBA{R: 102, G: 44, B: 145, A: 0xff},
	color.RGBA{R: 162, G: 29, B: 33, A: 0xff},
	color.RGBA{R: 180, G: 56, B: 148, A: 0xff},
	color.RGBA{R: 0x00, G: 0x80, B: 0x80, A: 0xff}, // teal
	color.RGBA{R: 0x8c, G: 0x56, B: 0x2b, A: 0xff}, // brown
	color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}, // gray
}

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

// savePanel writes one panel to path.
func savePanel(p *panel, path string) error {
	return save(path, func(c draw.Canvas) { drawPanels(c, 0, p) })
}
