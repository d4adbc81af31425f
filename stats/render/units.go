package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/pummel-dev/pummel/internal/units"
)

// FormatTime formats a duration in microseconds as wrk's format_time_us:
// "635.91us", "0.89ms", "1.50s", "10.00m" (units.Time, which the engine
// also names times with).
func FormatTime(us float64) string { return units.Time(us) }

// FormatDuration prints d as Go does, as Vegeta's report and the progress
// line show durations ("4.9912s", "1.2ms"), but with microseconds spelt
// "us" ("812us", not Go's "812µs"), as every other time pummel prints;
// Go's time.ParseDuration reads both spellings.
func FormatDuration(d time.Duration) string {
	return strings.Replace(d.String(), "µs", "us", 1)
}

// FormatBytes formats a byte count (or a rate in bytes per second) in
// 1024-based units named as such, with two decimals: "512.00B", "1.50KiB",
// "17.76GiB" (units.Bytes). Every renderer formats bytes with it, so sizes
// read the same everywhere; only wrk's Transfer/sec line keeps wrk's
// spelling (wrkBytes).
func FormatBytes(n float64) string { return units.Bytes(n) }

// wrkBytes formats a byte rate as wrk's Transfer/sec line does, "840.06KB":
// wrk's "MB" is 2^20 bytes. Scripts that read wrk's output grep that line,
// so it keeps wrk's spelling; every other size is FormatBytes's.
func wrkBytes(n float64) string { return units.Binary(n) + "B" }

// FormatSignificant prints v with three significant digits, never cutting
// the whole part, and without trailing zeros: "23.4", "0.123", "12346",
// "0".
func FormatSignificant(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	digits := int(math.Floor(math.Log10(math.Abs(v)))) + 1
	s := strconv.FormatFloat(v, 'f', min(max(0, 3-digits), 9), 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// metricSuffixes are the suffixes FormatCompact picks from, each 1000
// times the one before; a count typed with one means the same (k, M, G).
var metricSuffixes = []string{"", "k", "M", "G", "T"}

// FormatCompact prints a rate or a count in three significant digits with
// the suffix its own size chooses: "950", "55.6k", "1.23M". It is for
// short places (a threshold's value), where a figure's suffix must not be
// the one its bound was written with ("0.0556M").
func FormatCompact(v float64) string {
	i := 0
	for i+1 < len(metricSuffixes) && math.Abs(roundSignificant(v)) >= 1000 {
		v /= 1000
		i++
	}
	return FormatSignificant(v) + metricSuffixes[i]
}

// roundSignificant rounds v to three significant digits, as
// FormatSignificant prints it (999.6 is 1000, so it takes the next
// suffix).
func roundSignificant(v float64) float64 {
	f, _ := strconv.ParseFloat(FormatSignificant(v), 64)
	return f
}

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
// one space, and makes every other character that does not print (a
// terminal escape, BEL) a space too: text a server or a process chose
// (an error page, a process name) cannot move the cursor or ring. Bytes
// that are not UTF-8 show as U+FFFD.
func OneLine(s string) string {
	printable := strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(printable), " ")
}

// FormatCount formats n with commas between thousands: "40,000".
func FormatCount(n int64) string { return GroupThousands(strconv.FormatInt(n, 10)) }

// FormatCountOf is FormatCount of a count held as a float (a median of
// counts may fall halfway; it rounds).
func FormatCountOf(n float64) string { return FormatCount(int64(math.Round(n))) }

// FormatRate formats a rate with two decimals and commas between
// thousands: "2,246,229.09".
func FormatRate(f float64) string { return GroupThousands(strconv.FormatFloat(f, 'f', 2, 64)) }

// GroupThousands puts commas between the thousands of a number written
// in decimals: "12000" becomes "12,000", "-2246229.09" "-2,246,229.09".
// Every number pummel prints with commas (tables, chart axes) goes
// through it.
func GroupThousands(number string) string {
	whole, fraction, hasFraction := strings.Cut(number, ".")
	sign := ""
	if rest, ok := strings.CutPrefix(whole, "-"); ok {
		sign, whole = "-", rest
	}
	var b strings.Builder
	b.WriteString(sign)
	for i, digit := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(digit)
	}
	if hasFraction {
		b.WriteString("." + fraction)
	}
	return b.String()
}
