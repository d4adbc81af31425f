package render

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/pummel-dev/pummel/internal/english"
	"github.com/pummel-dev/pummel/internal/units"
	"github.com/pummel-dev/pummel/stats"
)

// WriteHeader writes the first two lines of the text result, which say
// what runs: "Running 10s test @ URL" and "  2 threads and 10
// connections". pummel writes them when the load starts, as wrk does, so
// that a log shows what is running before the figures arrive.
func WriteHeader(w io.Writer, c stats.Config) error {
	ew := NewPrinter(w)
	writeHeader(ew, c)
	if ew.Err() != nil {
		return fmt.Errorf("writing the header: %w", ew.Err())
	}
	return nil
}

// writeHeader names the whole test, so that it agrees with the totals
// printed at the end ("7800 requests in 9.00s" after "Running 9s test"),
// and how it is made up, in parentheses: "Running 9s test (3 stages of
// 3s at 100, 500, 2000 req/s, after a 2s warm-up) @ URL". A plain run of
// a duration or a count prints exactly wrk's line.
func writeHeader(ew *Printer, c stats.Config) {
	test := testSpan(c, max(c.Runs, 1)) + " test"
	if parts := testParts(c); len(parts) > 0 {
		test += " (" + strings.Join(parts, ", ") + ")"
	}
	ew.Printf("Running %s @ %s\n", test, c.URL)
	ew.Printf("  %d threads and %d connections\n", c.Threads, c.Connections)
	if p := ProtocolName(c); p != "" {
		ew.Printf("  Protocol: %s, %s × %s\n", p, english.Plural(c.Connections, "connection"), english.Plural(max(c.Streams, 1), "stream"))
	}
}

// ProtocolName names an HTTP/2 or HTTP/3 run's protocol ("HTTP/2
// (h2c)", "HTTP/3 (h3)"); it is empty for HTTP/1.1, which every output
// takes for granted, as wrk does.
func ProtocolName(c stats.Config) string {
	switch c.Protocol {
	case "h2", "h2c":
		return "HTTP/2 (" + c.Protocol + ")"
	case "h3":
		return "HTTP/3 (h3)"
	}
	return ""
}

// testSpan is what runs bounds the test by, over runs runs: a count of
// requests ("40000 requests"), or a time ("9s", every rate stage included).
func testSpan(c stats.Config, runs int) string {
	switch {
	case len(c.Rates) > 0:
		return testDuration(c.DurationS * float64(len(c.Rates)*runs))
	case c.Requests > 0:
		return fmt.Sprintf("%d requests", c.Requests*int64(runs))
	}
	return testDuration(c.DurationS * float64(runs))
}

// testParts says how the test is made up: runs, rate stages, a time bound
// on a count, warm-up.
func testParts(c stats.Config) []string {
	var parts []string
	each := ""
	if c.Runs > 1 {
		parts = append(parts, fmt.Sprintf("%d runs of %s", c.Runs, testSpan(c, 1)))
		each = " each"
	}
	switch rates := strings.Join(c.RateNames(), ", "); {
	case len(c.Rates) > 1:
		parts = append(parts, fmt.Sprintf("%d stages of %s at %s req/s", len(c.Rates), testDuration(c.DurationS), rates))
	case len(c.Rates) == 1:
		parts = append(parts, "at "+rates+" req/s")
	}
	if c.Requests > 0 && c.DurationS > 0 {
		parts = append(parts, "at most "+testDuration(c.DurationS)+each)
	}
	if c.WarmupS > 0 {
		parts = append(parts, "after a "+testDuration(c.WarmupS)+" warm-up"+each)
	}
	if c.WarmupRequests > 0 {
		parts = append(parts, fmt.Sprintf("after %d warm-up requests%s", c.WarmupRequests, each))
	}
	return parts
}

// testDuration names the configured duration as wrk does ("10s", "10m")
// when it is whole seconds, the only durations wrk accepts, and as Go does
// ("500ms", "1.5s") otherwise, where wrk's format would round it away.
func testDuration(s float64) string {
	if s >= 1 && s == math.Trunc(s) {
		return units.WholeSeconds(s)
	}
	return FormatDuration(time.Duration(s * float64(time.Second)))
}
