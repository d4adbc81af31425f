package suite

import (
	"fmt"
	"strconv"
	"strings"
)

// formatUs formats microseconds as pummel's other renderers do (wrk's
// units): "635.91us", "1.50ms", "2.25s", "1.10m".
func formatUs(us float64) string {
	switch {
	case us >= 1e6:
		return formatSeconds(us / 1e6)
	case us >= 850:
		return fmt.Sprintf("%.2fms", us/1e3)
	}
	return fmt.Sprintf("%.2fus", us)
}

// formatSeconds formats seconds the same way.
func formatSeconds(s float64) string {
	switch {
	case s >= 51:
		return fmt.Sprintf("%.2fm", s/60)
	case s >= 1:
		return fmt.Sprintf("%.2fs", s)
	}
	return formatUs(s * 1e6)
}

// formatRate formats requests per second with commas: "12,345.6".
func formatRate(r float64) string {
	whole, frac, _ := strings.Cut(strconv.FormatFloat(r, 'f', 1, 64), ".")
	var b strings.Builder
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return b.String() + "." + frac
}

// formatCount formats a count with commas: "40,000".
func formatCount(n int64) string {
	s := formatRate(float64(n))
	return s[:len(s)-2]
}
