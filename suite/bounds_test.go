package suite

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// laughs is a billion-laughs alias bomb of the given depth under a
// field that takes any YAML (a JSON check): each level lists the one
// before ten times, so it expands to 10^depth values.
func laughs(depth int) string {
	var b strings.Builder
	b.WriteString(minimal + "    checks:\n      json:\n        l0: &l0 lol\n")
	for i := 1; i <= depth; i++ {
		fmt.Fprintf(&b, "        l%d: &l%d [%s]\n", i, i, strings.Repeat(fmt.Sprintf("*l%d,", i-1), 9)+fmt.Sprintf("*l%d", i-1))
	}
	return b.String()
}

// mergeLaughs is the same bomb made of mappings merged with "<<".
func mergeLaughs(depth int) string {
	var b strings.Builder
	b.WriteString(minimal + "    checks:\n      json:\n        m0: &m0 {a: lol, b: lol, c: lol, d: lol, e: lol, f: lol, g: lol, h: lol, i: lol, j: lol}\n")
	for i := 1; i <= depth; i++ {
		var keys []string
		for k := range 10 {
			keys = append(keys, fmt.Sprintf("k%d: *m%d", k, i-1))
		}
		fmt.Fprintf(&b, "        m%d: &m%d {%s}\n", i, i, strings.Join(keys, ", "))
	}
	return b.String()
}

// manyKeys is a mapping of n keys, indented for a JSON check.
func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "        k%d: %d\n", i, i)
	}
	return b.String()
}

// deepKeys is a mapping nested n levels deep, one key per line.
func deepKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%sk%d:\n", strings.Repeat(" ", 8+i), i)
	}
	return b.String() + strings.Repeat(" ", 8+n) + "x\n"
}

// TestHugePlansFailCheaply loads plans built to make a YAML decoder slow
// or large: each must fail as a PlanError naming the file, having
// allocated little (counted in bytes, not timed: the machine is shared).
func TestHugePlansFailCheaply(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // in the error; "" for a plan that loads
	}{
		{"alias bomb", laughs(6), "aliases expand to more than 100000 values"},
		{"merge bomb", mergeLaughs(5), "aliases expand to more than 100000 values"},
		{"deep nesting", minimal + "    checks:\n      json:\n        x:\n          " + strings.Repeat("- ", 20_000) + "x\n", "more than 10000 YAML tokens"},
		{"deep block nesting", minimal + "    checks:\n      json:\n        x:\n          " + strings.Repeat("- ", 3000) + "x\n", "13: nested more than 64 levels deep"},
		{"deep flow nesting", minimal + "    checks:\n      json:\n        x: " + strings.Repeat("[", 3000) + strings.Repeat("]", 3000) + "\n", "12: nested more than 64 levels deep"},
		{"deep keys", minimal + "    checks:\n      json:\n" + deepKeys(100), "nested more than 64 levels deep"},
		{"many keys", minimal + "    checks:\n      json:\n" + manyKeys(30_000), "more than 10000 YAML tokens"},
		{"large file", minimal + strings.Repeat("# padding\n", 120_000), "larger than 1024 KiB"},
		{"aliases that reuse a little", laughs(3), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writePlan(t, tt.src)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Load(context.Background(), path)
			runtime.ReadMemStats(&after)
			if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 64<<20 {
				t.Errorf("Load allocated %d MiB", allocated>>20)
			}
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				return
			}
			var perr *PlanError
			if !errors.As(err, &perr) || perr.File != path || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Load = %v, want a PlanError for %s with %q", err, path, tt.want)
			}
		})
	}
}
