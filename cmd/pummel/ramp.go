package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pummel-dev/pummel/internal/parse"
)

// parseRateStages reads -R: constant stages ("10", "0.5", "10,50,250",
// k/M/G suffixes as counts) and linear ramps ("100..2000", a ramp from
// 100 to 2,000 requests/s; "100..2000,2000", a ramp then a hold). from is
// nil unless a stage ramps; then it holds every stage's starting rate. A
// ramp's ends may be 0; engine.Config.Validate checks the rest.
func parseRateStages(s string) (rates, from []float64, err error) {
	ramps := false
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, ramp := strings.Cut(strings.TrimSpace(part), "..")
		if !ramp {
			hi = lo
		}
		a, okA := rampEnd(lo, ramp)
		b, okB := rampEnd(hi, ramp)
		if !okA || !okB {
			return nil, nil, fmt.Errorf("%q is not a rate list (examples: 100, 0.5, 10,50,250, 20k, 100..2000, 100..2000,2000)", s)
		}
		if a == 0 && b == 0 {
			return nil, nil, fmt.Errorf("%q: a ramp from 0 to 0 sends nothing", part)
		}
		ramps = ramps || ramp
		rates, from = append(rates, b), append(from, a)
	}
	if !ramps {
		from = nil
	}
	return rates, from, nil
}

// rampEnd reads one rate of -R: a ramp's end may be 0.
func rampEnd(s string, ramp bool) (float64, bool) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); ramp && err == nil && f == 0 {
		return 0, true
	}
	return parse.Rate(s)
}
