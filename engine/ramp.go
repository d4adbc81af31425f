package engine

import (
	"fmt"

	"github.com/pummel-dev/pummel/stats"
)

// stageFrom is open-loop stage i's starting rate: RampFrom[i] for a ramp,
// else its rate.
func (c *Config) stageFrom(i int) float64 {
	if len(c.RampFrom) > i {
		return c.RampFrom[i]
	}
	return c.Rates[i]
}

// ramps reports whether open-loop stage i changes its rate.
func (c *Config) ramps(i int) bool { return c.stageFrom(i) != c.Rates[i] }

// MeanRate is open-loop stage i's mean rate: its rate, or for a ramp the
// mean of its starting and final rates.
func (c *Config) MeanRate(i int) float64 { return (c.stageFrom(i) + c.Rates[i]) / 2 }

// stageName names open-loop stage i's rate as -R gives it: "100" or
// "100..2000".
func (c *Config) stageName(i int) string {
	if c.ramps(i) {
		return stats.Ramp{From: c.stageFrom(i), To: c.Rates[i]}.String()
	}
	return fmt.Sprintf("%g", c.Rates[i])
}
