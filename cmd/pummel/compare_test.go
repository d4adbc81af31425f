package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/stats"
)

// savedPair saves one real run as base.json, and as new.json the same
// run with its requests/s and p99 scaled.
func savedPair(t *testing.T, rpsScale, p99Scale float64) (base, next string) {
	t.Helper()
	dir := t.TempDir()
	base, next = filepath.Join(dir, "base.json"), filepath.Join(dir, "new.json")
	if code, _, stderr := pummel(t.Context(), "-c", "2", "-n", "100", "-q", "-o", base, targetURL(t)); code != 0 {
		t.Fatalf("run: %s", stderr)
	}
	r := readResultFile(t, base)
	// As a run would measure it: the same requests in less time, every
	// latency figure scaled (report refuses a p99 above the p99.9).
	r.RequestsPerS *= rpsScale
	r.DurationS /= rpsScale
	l := r.Latency
	for _, f := range []*float64{&l.Min, &l.Mean, &l.Stdev, &l.Max, &l.P50, &l.P75, &l.P90, &l.P95, &l.P99, &l.P999, &l.P9999} {
		*f *= p99Scale
	}
	f, err := os.Create(next)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := stats.WriteJSON(f, r); err != nil {
		t.Fatal(err)
	}
	return base, next
}

// readResultFile reads a saved JSON result.
func readResultFile(t *testing.T, path string) stats.Result {
	t.Helper()
	return readJSONFile[stats.Result](t, path)
}

// readJSONFile decodes the JSON file at path.
func readJSONFile[T any](t *testing.T, path string) T {
	t.Helper()
	var v T
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, &v)
	}
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestCompareMaxRegression(t *testing.T) {
	tests := []struct {
		name       string
		rps, p99   float64 // new/base
		bounds     []string
		code       int
		regression []string // stderr lines
	}{
		{"within", 0.97, 1.05, []string{"5%", "p99=10%"}, exitOK, nil},
		{"slower", 0.90, 1, []string{"5%"}, exitCondition, []string{"pummel: compare: rps fell by 10% ("}},
		{"faster", 1.50, 1, []string{"5%"}, exitOK, nil},
		{"p99 and rps", 0.5, 2, []string{"p99=10%", "rps=5%"}, exitCondition,
			[]string{"pummel: compare: p99 rose by 100% (", "pummel: compare: rps fell by 50% ("}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, next := savedPair(t, tt.rps, tt.p99)
			args := []string{"compare"}
			for _, b := range tt.bounds {
				args = append(args, "--max-regression", b)
			}
			code, stdout, stderr := pummel(t.Context(), append(args, base, next)...)
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			if stderr == "" {
				lines = nil
			}
			if code != tt.code || len(lines) != len(tt.regression) || !strings.Contains(stdout, "new/base") {
				t.Fatalf("exit %d, stderr %q, stdout:\n%s\nwant exit %d and %d lines", code, stderr, stdout, tt.code, len(tt.regression))
			}
			for i, want := range tt.regression {
				if !strings.HasPrefix(lines[i], want) {
					t.Errorf("line %q, want %q…", lines[i], want)
				}
			}
		})
	}
}

func TestCompareMaxRegressionBadInput(t *testing.T) {
	base, next := savedPair(t, 1, 1)
	for bound, want := range map[string]string{
		"5":          `--max-regression "5": "5" is not a percentage`,
		"p98=5%":     `--max-regression "p98=5%": unknown figure`,
		"nan%":       `--max-regression "nan%": "nan%" is not a percentage`,
		"p99=NaN%":   `--max-regression "p99=NaN%": "NaN%" is not a percentage`,
		"startup=5%": `--max-regression "startup=5%": BASE lacks startup`,
	} {
		code, stdout, stderr := pummel(t.Context(), "compare", "--max-regression", bound, base, next)
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, "pummel: "+want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("--max-regression %s: exit %d, stderr %q, stdout %q", bound, code, stderr, stdout)
		}
	}
}
