package engine

import (
	"fmt"
)

// MaxRows bounds the rows of per-target figures a load over a list of
// targets keeps: each row keeps its own latency histogram per worker and
// stage (about 264 KiB each), so their number is bounded, not the
// targets'. Targets that share a name share a row; an unnamed target has
// a row of its own, unless that would make more than MaxRows rows: all
// unnamed targets then share one row, UnnamedRow.
const MaxRows = 100

// MaxTargets bounds the number of targets: each keeps its serialised
// request (and its place in the interleaving, Sequence) for the load,
// and reading a file of a million took 1.2 GB and 8.5 s before the
// clock; a hundred thousand take a tenth of that.
const MaxTargets = 100_000

// UnnamedRow names the row the unnamed targets share when they cannot
// each have one (see MaxRows).
const UnnamedRow = "unnamed"

// TargetRow is one row of per-target figures: the targets that share a
// name, or one unnamed target.
type TargetRow struct {
	// Name is the targets' name ("" for one unnamed target's row).
	Name string
	// First is the index of the row's first target, whose request
	// stands for the row's; Targets counts its targets, Weight sums
	// their weights.
	First, Targets, Weight int
}

// TargetRows groups targets into rows, in the order of their first
// targets, and maps each target to its row. It fails with more than
// MaxRows rows.
func TargetRows(ts []Target) ([]TargetRow, []uint16, error) {
	names, unnamed := 0, 0
	seen := map[string]bool{}
	for _, t := range ts {
		switch {
		case t.Name == "":
			unnamed++
		case !seen[t.Name]:
			seen[t.Name] = true
			names++
		}
	}
	collapse := names+unnamed > MaxRows
	if collapse && unnamed > 0 && !seen[UnnamedRow] && names+1 > MaxRows {
		return nil, nil, fmt.Errorf("%d names and unnamed targets, which share a row %q: at most %d rows", names, UnnamedRow, MaxRows)
	}
	if names > MaxRows {
		return nil, nil, fmt.Errorf("%d names, at most %d", names, MaxRows)
	}
	var rows []TargetRow
	rowOf := make([]uint16, len(ts))
	byName := map[string]int{}
	for i, t := range ts {
		name := t.Name
		if name == "" && collapse {
			name = UnnamedRow
		}
		r, ok := byName[name]
		if !ok || name == "" {
			r = len(rows)
			rows = append(rows, TargetRow{Name: name, First: i})
			if name != "" {
				byName[name] = r
			}
		}
		rows[r].Targets++
		rows[r].Weight += t.Weight
		rowOf[i] = uint16(r)
	}
	return rows, rowOf, nil
}
