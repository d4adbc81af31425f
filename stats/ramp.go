package stats

import "fmt"

// RateNames names each open-loop stage's rate as -R gives it: "250" for a
// constant stage, "100..2000" for a ramp.
func (c Config) RateNames() []string {
	names := make([]string, len(c.Rates))
	for i, r := range c.Rates {
		names[i] = fmt.Sprintf("%g", r)
		if i < len(c.Ramps) && c.Ramps[i].From != c.Ramps[i].To {
			names[i] = c.Ramps[i].String()
		}
	}
	return names
}

// String is the ramp as -R gives it: "100..2000".
func (r Ramp) String() string { return fmt.Sprintf("%g..%g", r.From, r.To) }

// TargetName names an open-loop result's target rate: "250", or for a
// ramp "1050 (100..2000)", its mean and its ends.
func (r Result) TargetName() string {
	if r.Ramp != nil {
		return fmt.Sprintf("%g (%s)", r.TargetRate, r.Ramp)
	}
	return fmt.Sprintf("%g", r.TargetRate)
}
