package main

import (
	"slices"
	"strings"
	"testing"
)

// TestParseRatesIsRateStagesWithoutRamps: --warmup-rate and capacity's
// range read a rate list as -R does, and refuse a ramp.
func TestParseRatesIsRateStagesWithoutRamps(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []float64 // nil: refused
	}{
		{"10", []float64{10}},
		{"0.5, 20k", []float64{0.5, 20_000}},
		{"10,50,250", []float64{10, 50, 250}},
		{"0", nil},
		{"100..2000", nil},
		{"100..2000,2000", nil},
		{"ten", nil},
	} {
		got, err := parseRates(tt.in)
		if !slices.Equal(got, tt.want) || (err != nil) != (tt.want == nil) {
			t.Errorf("parseRates(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
		if err != nil && !strings.Contains(err.Error(), "is not a rate list") {
			t.Errorf("parseRates(%q): %v", tt.in, err)
		}
		if rates, from, err := parseRateStages(tt.in); tt.want != nil && (err != nil || from != nil || !slices.Equal(rates, tt.want)) {
			t.Errorf("parseRateStages(%q) = %v, %v, %v; want %v as parseRates", tt.in, rates, from, err, tt.want)
		}
	}
}
