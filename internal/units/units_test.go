package units

import "testing"

// The expected strings below are worked out by hand from wrk's src/units.c:
// a value moves to the next unit while it is at least 85% of the scale and
// the unit after the next one exists, then prints with "%.*f%s".
func TestUnits(t *testing.T) {
	const k, m, g, tb = 1 << 10, 1 << 20, 1 << 30, 1 << 40
	for _, tt := range []struct {
		name   string
		format func(float64) string
		n      float64
		want   string
	}{
		{"us: zero", Time, 0, "0.00us"},
		{"us: microseconds", Time, 635.91, "635.91us"},
		{"us: just under 85% of a millisecond", Time, 849.99, "849.99us"},
		{"us: 85% of a millisecond", Time, 850, "0.85ms"},
		{"us: wrk README stdev", Time, 890, "0.89ms"},
		{"us: milliseconds", Time, 12920, "12.92ms"},
		{"us: ms is the last unit of the us table", Time, 999_999, "1000.00ms"},
		{"us: a second switches to the seconds table", Time, 1e6, "1.00s"},
		{"us: seconds", Time, 1.5e6, "1.50s"},
		{"us: wrk run time", Time, 10.0037e6, "10.00s"},
		{"us: 85% of a minute", Time, 51e6, "0.85m"},
		{"us: ten minutes", Time, 600e6, "10.00m"},
		{"us: h is never reached", Time, 7200e6, "120.00m"},
		{"s: ten seconds", WholeSeconds, 10, "10s"},
		{"s: just under 85% of a minute", WholeSeconds, 50, "50s"},
		{"s: 85% of a minute rounds to one", WholeSeconds, 51, "1m"},
		{"s: a minute", WholeSeconds, 60, "1m"},
		{"s: ties round to even as in C", WholeSeconds, 90, "2m"},
		{"s: two and a half minutes", WholeSeconds, 150, "2m"},
		{"s: ten minutes", WholeSeconds, 600, "10m"},
		{"s: an hour stays in minutes", WholeSeconds, 3600, "60m"},
		{"binary zero", Binary, 0, "0.00"},
		{"binary under 85% of 1024", Binary, 870, "870.00"},
		{"binary at 85% of 1024", Binary, 871, "0.85K"},
		{"binary megabytes", Binary, 134.46 * m, "134.46M"},
		{"binary gigabytes", Binary, 17.76 * g, "17.76G"},
		{"binary T is the last unit", Binary, 1024 * tb, "1024.00T"},
		{"metric rounds up into the next unit", Metric, 999, "1.00k"},
		{"metric under 85% of 1000", Metric, 849, "849.00"},
		{"metric thousands", Metric, 56_200, "56.20k"},
		{"metric millions", Metric, 2_246_229, "2.25M"},
		{"metric T is the last unit", Metric, 1e15, "1000.00T"},
		{"bytes in MiB, never MB", Bytes, 134.46 * m, "134.46MiB"},
		{"bytes below a KiB", Bytes, 512, "512.00B"},
		{"bytes in KiB", Bytes, 1.5 * k, "1.50KiB"},
		{"issue 27: 18,374,656 bytes", Bytes, 18_374_656, "17.52MiB"},
		{"machine memory in GiB", Bytes, 8_323_002_368, "7.75GiB"},
		{"bytes: TiB is the last unit", Bytes, 1024 * tb, "1024.00TiB"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.format(tt.n); got != tt.want {
				t.Errorf("%v: got %q, want %q", tt.n, got, tt.want)
			}
		})
	}
}
