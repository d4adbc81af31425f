package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/parse"
)

// parseCount reads a count with an optional k, M or G suffix (×1000,
// as wrk): "64", "1k", "1.5M".
func parseCount(s string) (int64, error) {
	n, ok := parse.Count(s)
	if !ok {
		return 0, fmt.Errorf("%q is not a count (examples: 64, 1k, 1M)", s)
	}
	return n, nil
}

// parseSize reads a byte count: a count ("65536", "64k", "64M", "1G",
// ×1000 as for -c, with an optional B: "64MB") or a binary size ("64KiB",
// "64MiB", "1GiB", ×1024).
func parseSize(s string) (int64, error) {
	n, ok := parse.Size(s)
	if !ok {
		return 0, fmt.Errorf("%q is not a size (examples: 65536, 64k, 64MiB, 1G)", s)
	}
	return n, nil
}

// parseDuration reads a duration: a Go duration ("500ms", "10s", "5m",
// "1h") or bare seconds ("30", "1.5").
func parseDuration(s string) (time.Duration, error) {
	d, ok := parse.Duration(s)
	if !ok {
		return 0, fmt.Errorf("%q is not a duration (examples: 500ms, 10s, 5m, 1h, 30)", s)
	}
	return d, nil
}

// parseStatuses reads "200", "200,204" or "2xx,301".
func parseStatuses(s string) ([]parse.StatusRange, error) {
	out, ok := parse.Statuses(s)
	if !ok {
		return nil, fmt.Errorf("%q is not a status list (examples: 200, 200,204, 2xx)", s)
	}
	return out, nil
}

// parseHeader reads "Name: value"; engine.CheckHeader checks what it holds.
func parseHeader(s string) (engine.Header, error) {
	name, value, ok := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") {
		// Quote the first word only: without a colon, the value (a
		// credential, perhaps) cannot be told from the name.
		first, _, more := strings.Cut(s, " ")
		if more {
			first += " …"
		}
		return engine.Header{}, fmt.Errorf("%q is not a header (example: \"Accept: text/html\")", first)
	}
	return engine.Header{Name: name, Value: strings.TrimSpace(value)}, nil
}

// parseRates reads "10", "0.5" or "10,50,250" (requests per second; k/M/G
// suffixes as counts).
func parseRates(s string) ([]float64, error) {
	rates, from, err := parseRateStages(s)
	if err != nil || from != nil {
		return nil, fmt.Errorf("%q is not a rate list (examples: 100, 0.5, 10,50,250, 20k)", s)
	}
	return rates, nil
}
