// Package units writes times, sizes and counts in wrk's units (its
// src/units.c): "635.91us", "1.50s", "56.20k", and sizes in KiB and MiB.
// It imports nothing of pummel's, so that the engine, which never
// renders, names a time in a warning as the renderers print it.
package units

import "fmt"

// table is one of wrk's unit tables: a value is divided by scale and
// moves to the next unit while it is at least 85% of scale.
type table struct {
	scale float64
	base  string
	units []string
}

// wrk's four tables. wrk's loop stops when the unit after the current one is
// NULL, so the last unit of each table is never printed: microseconds top out
// at "ms" (seconds go through secondUnits instead), seconds at "m" (an hour
// prints as "60.00m"), bytes and counts at "T". That quirk is kept on
// purpose, so that pummel prints exactly what wrk prints.
var (
	microsecondUnits = table{scale: 1000, base: "us", units: []string{"ms", "s"}}
	secondUnits      = table{scale: 60, base: "s", units: []string{"m", "h"}}
	binaryUnits      = table{scale: 1024, base: "", units: []string{"K", "M", "G", "T", "P"}}
	metricUnits      = table{scale: 1000, base: "", units: []string{"k", "M", "G", "T", "P"}}
)

// iecUnits is binaryUnits spelled as IEC 80000-13 spells powers of 1024
// (KiB, MiB, GiB), so that a size printed by pummel reads the same as it
// is typed: "64MiB" on the command line is the 64.00MiB printed.
var iecUnits = table{scale: 1024, base: "B", units: []string{"KiB", "MiB", "GiB", "TiB", "PiB"}}

// format reproduces wrk's format_units: n scaled down, printed with
// precision digits and followed by its unit.
func (t table) format(n float64, precision int) string {
	amt, unit := n, t.base
	threshold := t.scale * 0.85
	for i := 0; i+1 < len(t.units) && amt >= threshold; i++ {
		amt /= t.scale
		unit = t.units[i]
	}
	return fmt.Sprintf("%.*f%s", precision, amt, unit)
}

// Time formats a duration in microseconds as wrk's format_time_us:
// "635.91us", "0.89ms", "1.50s", "10.00m".
func Time(us float64) string {
	if us >= 1e6 {
		return secondUnits.format(us/1e6, 2)
	}
	return microsecondUnits.format(us, 2)
}

// WholeSeconds formats whole seconds as wrk's format_time_s, for the
// "Running 10s test" header: "10s", "1m", "10m".
func WholeSeconds(s float64) string { return secondUnits.format(s, 0) }

// Binary formats a byte count with 1024-based units and no "B", as wrk's
// format_binary: "512.00", "1.78G".
func Binary(n float64) string { return binaryUnits.format(n, 2) }

// Metric formats a count with 1000-based units, as wrk's format_metric:
// "56.20k".
func Metric(n float64) string { return metricUnits.format(n, 2) }

// Bytes formats a byte count (or a rate in bytes per second) in 1024-based
// units named as such, with two decimals: "512.00B", "1.50KiB",
// "17.76GiB".
func Bytes(n float64) string { return iecUnits.format(n, 2) }
