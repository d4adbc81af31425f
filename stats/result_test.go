package stats_test

import (
	"testing"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// TestErrorsTotalCountsEveryClass: Total is the sum over every error
// class, so that a class added later is not left out of "all errors".
func TestErrorsTotalCountsEveryClass(t *testing.T) {
	e := stats.Errors{Connect: 1, Read: 20, Write: 300, Timeout: 4_000, Status: 50_000, Validation: 600_000}
	var sum int64
	for c := range record.NumErrorClasses {
		sum += e.ByClass(c)
	}
	if e.Total() != sum || sum != 654_321 {
		t.Errorf("Total() = %d, want %d, every class's count", e.Total(), sum)
	}
}
