package stats

import "slices"

// Median returns the median of vs, the mean of the middle two for an even
// count; vs must not be empty, and is left unchanged.
func Median[T ~int64 | ~float64](vs []T) T {
	s := slices.Sorted(slices.Values(vs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return s[n/2-1] + (s[n/2]-s[n/2-1])/2
}
