// Package record is pummel's hot path of measurement: the per-worker
// Recorders that connections fold their outcomes into (in Batches, a lock
// taken once per BatchSize responses), the closed set of error classes,
// and the latency histograms' bounds. Recorders are merged once, after the
// run (Merge), and read (Totals) to build a stats.Result.
//
// It never summarises, encodes or renders: percentiles, JSON and text are
// the result model's (package stats) and the renderers' (stats/render).
// It imports nothing of pummel's, so that the engine's request path
// depends on it alone.
package record
