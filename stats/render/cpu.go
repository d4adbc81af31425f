package render

import (
	"fmt"
	"math"
	"time"
)

// CPUTick is the resolution of the CPU times a server's figures come
// from: the kernel accounts a process's CPU time in clock ticks (USER_HZ,
// 100 a second on Linux). A difference of two readings is uncertain by
// about one tick.
const CPUTick = 10 * time.Millisecond

// FormatCPUSeconds formats a CPU time to the tick it was measured in:
// "2.35s", "0.02s".
func FormatCPUSeconds(s float64) string { return fmt.Sprintf("%.2fs", s) }

// FormatCPUPerRequest formats a server's CPU time per request (µs) with
// the precision it has: one tick spread over the requests. Over 500
// requests that is 20us, so 38.4us prints as "40us"; over 400,000,
// 0.025us, so it prints as "38.40us". A time of less than a tick (0 as
// measured) prints as an upper bound: "<20us".
func FormatCPUPerRequest(us float64, requests int64) string {
	if requests <= 0 {
		return absent
	}
	resolution := float64(CPUTick.Microseconds()) / float64(requests)
	step := math.Pow(10, math.Floor(math.Log10(resolution)))
	if us < resolution/2 {
		return "<" + roundedTime(math.Ceil(resolution/step)*step, step)
	}
	return roundedTime(math.Round(us/step)*step, step)
}

// roundedTime prints us, a multiple of step (a power of ten), with the
// decimals step has, in µs, or in ms from 1ms on: "40us", "15.3us", "1.23ms".
func roundedTime(us, step float64) string {
	unit := "us"
	if us >= 1000 {
		us, step, unit = us/1000, step/1000, "ms"
	}
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	return fmt.Sprintf("%.*f%s", decimals, us, unit)
}
