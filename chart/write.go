package chart

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// WriteAll writes into dir (created if need be), as SVG and PNG, every
// chart the results allow: spectrum (all results overlaid), then
// capacity (capacity-NAME of several results) for each capacity search,
// timeline-NAME for each result with a timeline and rss-NAME for each
// with server RSS series, NAME being the result's name made safe for a
// file name. It returns the paths written, in that order.
func WriteAll(dir string, results []Named) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("charts: %w", err)
	}
	var written []string
	write := func(base string, draw func(path string) error) error {
		for _, ext := range []string{".svg", ".png"} {
			path := filepath.Join(dir, base+ext)
			if err := draw(path); err != nil {
				return err
			}
			written = append(written, path)
		}
		return nil
	}
	if hasLatency(results) {
		if err := write("spectrum", func(path string) error { return PercentileSpectrum(results, path) }); err != nil {
			return written, err
		}
	}
	for i, name := range fileNames(results) {
		r := results[i].Result
		if len(rateSteps(r.Steps)) > 0 {
			base := "capacity"
			if len(results) > 1 {
				base += "-" + name
			}
			if err := write(base, func(path string) error { return Capacity(r, path) }); err != nil {
				return written, err
			}
		}
		if len(r.Timeline) > 0 {
			if err := write("timeline-"+name, func(path string) error { return Timeline(r, path) }); err != nil {
				return written, err
			}
		}
		if hasRSS(r) {
			if err := write("rss-"+name, func(path string) error { return ServerRSS(r, path) }); err != nil {
				return written, err
			}
		}
	}
	return written, nil
}

// hasLatency reports whether any result holds a latency histogram.
func hasLatency(results []Named) bool {
	for _, r := range results {
		if r.Result.LatencyHistogram != "" {
			return true
		}
	}
	return false
}

// fileNames returns the results' names made safe and unique as parts of
// file names: letters, digits, '.', '_' and '-' are kept, anything else
// becomes '-'; a repeated name gets "-2", "-3", …
func fileNames(results []Named) []string {
	names := make([]string, len(results))
	taken := map[string]bool{}
	for i, r := range results {
		base := strings.Trim(strings.Map(safeRune, r.Name), ".")
		if base == "" {
			base = "result"
		}
		name := base
		for n := 2; taken[name]; n++ {
			name = base + "-" + strconv.Itoa(n)
		}
		taken[name] = true
		names[i] = name
	}
	return names
}

// safeRune keeps the ASCII letters, digits, '.', '_' and '-' of a file
// name and turns anything else into '-'.
func safeRune(c rune) rune {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
		return c
	}
	return '-'
}
