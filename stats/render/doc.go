// Package render writes a stats.Result for people: wrk-compatible text
// (WriteText, with its header WriteHeader), markdown ready to paste into a
// BENCHMARKS.md (WriteMarkdown), a side-by-side comparison of two sets of
// results (WriteComparison) and an HdrHistogram interval log
// (WriteHdrLog). It also lends its units and table helpers (FormatTime,
// FormatBytes, FormatCount, MarkdownTable, …) to the other renderers, such
// as suite's, so that figures read the same everywhere.
//
// It only reads results: it never records, merges or decodes JSON. The
// JSON form of a result is the result model's (stats.WriteJSON).
package render
