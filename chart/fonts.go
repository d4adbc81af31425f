package chart

import (
	"image/color"
	"sync"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/font/liberation"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// fonts holds the Liberation fonts, parsed at the first chart rather than
// at program start: a run that draws nothing never pays for them.
var fonts struct {
	once    sync.Once
	handler text.Handler
}

// sans is the typeface of every text of a chart.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// textStyle returns the style of text of size points in Liberation Sans,
// aligned on its point by its left and bottom edges.
func textStyle(size vg.Length) draw.TextStyle {
	fonts.once.Do(func() {
		fonts.handler = text.Plain{Fonts: font.NewCache(liberation.Collection())}
	})
	return draw.TextStyle{Color: color.Black, Font: font.From(sans, size), Handler: fonts.handler}
}
