package render

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// unitTable is one of wrk's unit tables (src/units.c): a value is divided by
// scale and moves to the next unit while it is at least 85% of scale.
type unitTable struct {
	scale float64
	base  string
	units []string
}

// wrk's four tables. wrk's loop stops when the unit after the current one is
// NULL, so the last unit of each table is never printed: microseconds top out
// at "ms" (seconds go through secondUnits instead), seconds at "m" (an hour
// prints as "60.00m"), bytes and counts at "T". That quirk is kept on
// purpose, so that pummel prints exactly what wrk prints.
var (
	microsecondUnits = unitTable{scale: 1000, base: "us", units: []string{"ms", "s"}}
	secondUnits      = unitTable{scale: 60, base: "s", units: []string{"m", "h"}}
	binaryUnits      = unitTable{scale: 1024, base: "", units: []string{"K", "M", "G", "T", "P"}}
	metricUnits      = unitTable{scale: 1000, base: "", units: []string{"k", "M", "G", "T", "P"}}
)

// format reproduces wrk's format_units: n scaled down, printed with
// precision digits and followed by its unit.
func (t unitTable) format(n float64, precision int) string {
	amt, unit := n, t.base
	threshold := t.scale * 0.85
	for i := 0; i+1 < len(t.units) && amt >= threshold; i++ {
		amt /= t.scale
		unit = t.units[i]
	}
	return fmt.Sprintf("%.*f%s", precision, amt, unit)
}

// FormatTime formats a duration in microseconds as wrk's format_time_us:
// "635.91us", "0.89ms", "1.50s", "10.00m".
func FormatTime(us float64) string {
	if us >= 1e6 {
		return secondUnits.format(us/1e6, 2)
	}
	return microsecondUnits.format(us, 2)
}

// formatTimeS formats whole seconds as wrk's format_time_s, for the
// "Running 10s test" header: "10s", "1m", "10m".
func formatTimeS(s float64) string { return secondUnits.format(s, 0) }

// formatBinary formats a byte count with 1024-based units and no "B", as
// wrk's format_binary: "512.00", "1.78G".
func formatBinary(n float64) string { return binaryUnits.format(n, 2) }

// formatMetric formats a count with 1000-based units, as wrk's
// format_metric: "56.20k".
func formatMetric(n float64) string { return metricUnits.format(n, 2) }

// FormatBytes formats a byte count (or a rate in bytes per second) the way
// wrk prints "17.76GB read": 1024-based units, two decimals, then "B". Every
// renderer formats bytes with it, so sizes read the same everywhere.
func FormatBytes(n float64) string { return formatBinary(n) + "B" }

// printUnits reproduces wrk's print_units: the formatted value
// right-aligned in width columns, where a value without a unit letter gets
// up to two columns of trailing padding so the numbers line up with the
// ones that have a unit. Like wrk's "%*.*s", a value wider than the column
// is cut.
func printUnits(n float64, format func(float64) string, width int) string {
	msg := format(n)
	pad := 2
	if endsInLetter(msg, 1) {
		pad--
	}
	if endsInLetter(msg, 2) {
		pad--
	}
	width -= pad
	if len(msg) > width {
		msg = msg[:width]
	}
	return fmt.Sprintf("%*s%s", width, msg, strings.Repeat(" ", pad))
}

// endsInLetter reports whether the byte i positions from the end of s is an
// ASCII letter (C's isalpha in the "C" locale).
func endsInLetter(s string, i int) bool {
	if len(s) < i {
		return false
	}
	c := rune(s[len(s)-i])
	return c < unicode.MaxASCII && unicode.IsLetter(c)
}

// OneLine folds every run of white space in s, line breaks included, into
// one space.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// FormatCount formats n with commas between thousands: "40,000".
func FormatCount(n int64) string { return groupDigits(strconv.FormatInt(n, 10)) }

// FormatRate formats a rate with two decimals and commas between
// thousands: "2,246,229.09".
func FormatRate(f float64) string {
	whole, frac, ok := strings.Cut(strconv.FormatFloat(f, 'f', 2, 64), ".")
	if ok {
		return groupDigits(whole) + "." + frac
	}
	return groupDigits(whole)
}

func groupDigits(s string) string {
	sign, digits := "", s
	if strings.HasPrefix(s, "-") {
		sign, digits = "-", s[1:]
	}
	var b strings.Builder
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return sign + b.String()
}
