package stats_test

import (
	"slices"
	"testing"

	"github.com/pummel-dev/pummel/stats"
)

func TestRateNames(t *testing.T) {
	c := stats.Config{Rates: []float64{1050, 2000}, Ramps: []stats.Ramp{{From: 100, To: 2000}, {From: 2000, To: 2000}}}
	if got := c.RateNames(); !slices.Equal(got, []string{"100..2000", "2000"}) {
		t.Errorf("names %q", got)
	}
	if got := (stats.Config{Rates: []float64{10, 0.5}}).RateNames(); !slices.Equal(got, []string{"10", "0.5"}) {
		t.Errorf("constant names %q", got)
	}
	r := stats.Result{TargetRate: 1050, Ramp: &stats.Ramp{From: 100, To: 2000}}
	if got := r.TargetName(); got != "1050 (100..2000)" {
		t.Errorf("target %q", got)
	}
}
