package render

import (
	"testing"
	"time"
)

// The expected strings below are worked out by hand from wrk's src/units.c:
// a value moves to the next unit while it is at least 85% of the scale and
// the unit after the next one exists, then prints with "%.*f%s".

func TestFormatTimeUs(t *testing.T) {
	for _, tt := range []struct {
		name string
		us   float64
		want string
	}{
		{"zero", 0, "0.00us"},
		{"microseconds", 635.91, "635.91us"},
		{"just under 85% of a millisecond", 849.99, "849.99us"},
		{"85% of a millisecond", 850, "0.85ms"},
		{"wrk README stdev", 890, "0.89ms"},
		{"milliseconds", 12920, "12.92ms"},
		{"ms is the last unit of the us table", 999_999, "1000.00ms"},
		{"a second switches to the seconds table", 1e6, "1.00s"},
		{"seconds", 1.5e6, "1.50s"},
		{"wrk run time", 10.0037e6, "10.00s"},
		{"85% of a minute", 51e6, "0.85m"},
		{"ten minutes", 600e6, "10.00m"},
		{"h is never reached", 7200e6, "120.00m"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := FormatTime(tt.us); got != tt.want {
				t.Errorf("FormatTime(%v) = %q, want %q", tt.us, got, tt.want)
			}
		})
	}
}

func TestFormatTimeS(t *testing.T) {
	for _, tt := range []struct {
		name string
		s    float64
		want string
	}{
		{"ten seconds", 10, "10s"},
		{"just under 85% of a minute", 50, "50s"},
		{"85% of a minute rounds to one", 51, "1m"},
		{"a minute", 60, "1m"},
		{"ties round to even as in C", 90, "2m"},
		{"two and a half minutes", 150, "2m"},
		{"ten minutes", 600, "10m"},
		{"an hour stays in minutes", 3600, "60m"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := formatTimeS(tt.s); got != tt.want {
				t.Errorf("formatTimeS(%v) = %q, want %q", tt.s, got, tt.want)
			}
		})
	}
}

// TestFormatSizesAndNumbers: wrk's tables, the sizes pummel prints in
// binary units, and the short numbers of threshold values.
func TestFormatSizesAndNumbers(t *testing.T) {
	const k, m, g, tb = 1 << 10, 1 << 20, 1 << 30, 1 << 40
	for _, tt := range []struct {
		name   string
		format func(float64) string
		n      float64
		want   string
	}{
		{"binary zero", formatBinary, 0, "0.00"},
		{"binary under 85% of 1024", formatBinary, 870, "870.00"},
		{"binary at 85% of 1024", formatBinary, 871, "0.85K"},
		{"binary megabytes", formatBinary, 134.46 * m, "134.46M"},
		{"binary gigabytes", formatBinary, 17.76 * g, "17.76G"},
		{"binary T is the last unit", formatBinary, 1024 * tb, "1024.00T"},
		{"metric rounds up into the next unit", formatMetric, 999, "1.00k"},
		{"metric under 85% of 1000", formatMetric, 849, "849.00"},
		{"metric thousands", formatMetric, 56_200, "56.20k"},
		{"metric millions", formatMetric, 2_246_229, "2.25M"},
		{"metric T is the last unit", formatMetric, 1e15, "1000.00T"},
		{"bytes in MiB, never MB", FormatBytes, 134.46 * m, "134.46MiB"},
		{"bytes below a KiB", FormatBytes, 512, "512.00B"},
		{"bytes in KiB", FormatBytes, 1.5 * k, "1.50KiB"},
		{"issue 27: 18,374,656 bytes", FormatBytes, 18_374_656, "17.52MiB"},
		{"machine memory in GiB", FormatBytes, 8_323_002_368, "7.75GiB"},
		{"bytes: TiB is the last unit", FormatBytes, 1024 * tb, "1024.00TiB"},
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
		{"one-letter unit gets one space after", 56_200, formatMetric, 8, " 56.20k "},
		{"seconds get one space after", 1.5e6, FormatTime, 8, "  1.50s "},
		{"no unit gets two spaces after", 12, formatMetric, 9, "  12.00  "},
		{"too wide is cut as by %*.*s", 1e15, formatMetric, 8, "1000.00 "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := printUnits(tt.n, tt.format, tt.width); got != tt.want {
				t.Errorf("printUnits(%v, %d) = %q, want %q", tt.n, tt.width, got, tt.want)
			}
		})
	}
}
