package render

import (
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/units"
)

// TestFormatSizesAndNumbers: the sizes pummel prints (units' tables, tested
// in internal/units), wrk's Transfer/sec spelling, and the short numbers of
// threshold values.
func TestFormatSizesAndNumbers(t *testing.T) {
	const m = 1 << 20
	for _, tt := range []struct {
		name   string
		format func(float64) string
		n      float64
		want   string
	}{
		{"bytes in MiB, never MB", FormatBytes, 134.46 * m, "134.46MiB"},
		{"wrk's Transfer/sec keeps wrk's MB", wrkBytes, 134.46 * m, "134.46MB"},
		{"three digits", FormatSignificant, 23.4123, "23.4"},
		{"below one", FormatSignificant, 0.1234, "0.123"},
		{"small", FormatSignificant, 0.00123, "0.00123"},
		{"whole part never cut", FormatSignificant, 12345.6, "12346"},
		{"trailing zeros dropped", FormatSignificant, 100, "100"},
		{"one decimal", FormatSignificant, 2.5, "2.5"},
		{"zero", FormatSignificant, 0, "0"},
		{"under a thousand: no suffix", FormatCompact, 950, "950"},
		{"issue 27: rps>1M shows 55.6k", FormatCompact, 55_600, "55.6k"},
		{"thousands", FormatCompact, 12_345.6, "12.3k"},
		{"rounds up into the next suffix", FormatCompact, 999.6, "1k"},
		{"millions", FormatCompact, 1_234_567, "1.23M"},
		{"billions", FormatCompact, 2e9, "2G"},
		{"fractions", FormatCompact, 0.5, "0.5"},
		{"T is the last suffix", FormatCompact, 5e15, "5000T"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.format(tt.n); got != tt.want {
				t.Errorf("format(%v) = %q, want %q", tt.n, got, tt.want)
			}
		})
	}
}

// TestFormatDuration: Go's durations as Vegeta prints them, with "us" for
// microseconds as every other time pummel prints, never "µs".
func TestFormatDuration(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{812 * time.Microsecond, "812us"},
		{1200 * time.Microsecond, "1.2ms"},
		{4991200 * time.Microsecond, "4.9912s"},
		{1500 * time.Nanosecond, "1.5us"},
		{90 * time.Second, "1m30s"},
		{0, "0s"},
	} {
		if got := FormatDuration(tt.d); got != tt.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

// TestNumbers: the one number formatter that tables, compare and chart
// axes share.
func TestNumbers(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{GroupThousands("12"), "12"},
		{GroupThousands("12000"), "12,000"},
		{GroupThousands("-2246229.09"), "-2,246,229.09"},
		{GroupThousands("0.125"), "0.125"},
		{GroupThousands("1234.5"), "1,234.5"},
		{FormatCount(40000), "40,000"},
		{FormatCount(-1234567), "-1,234,567"},
		{FormatCountOf(2.5), "3"},
		{FormatRate(5549.834), "5,549.83"},
		{FormatRate(0), "0.00"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestPrintUnits(t *testing.T) {
	for _, tt := range []struct {
		name   string
		n      float64
		format func(float64) string
		width  int
		want   string
	}{
		{"two-letter unit fills the column", 635.91, FormatTime, 8, "635.91us"},
		{"two-letter unit right-aligned", 890, FormatTime, 10, "    0.89ms"},
		{"one-letter unit gets one space after", 56_200, units.Metric, 8, " 56.20k "},
		{"seconds get one space after", 1.5e6, FormatTime, 8, "  1.50s "},
		{"no unit gets two spaces after", 12, units.Metric, 9, "  12.00  "},
		{"too wide is cut as by %*.*s", 1e15, units.Metric, 8, "1000.00 "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := printUnits(tt.n, tt.format, tt.width); got != tt.want {
				t.Errorf("printUnits(%v, %d) = %q, want %q", tt.n, tt.width, got, tt.want)
			}
		})
	}
}

func TestOneLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"  two\r\n\tlines \n", "two lines"},
		{"\x1b[2Jcleared\x07", "[2Jcleared"},
		{"a\u200bb\u2028c", "a b c"}, // a zero-width space and a line separator print nothing
		{"bad \xff byte", "bad \uFFFD byte"},
		{"", ""},
	} {
		if got := OneLine(tc.in); got != tc.want {
			t.Errorf("OneLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
