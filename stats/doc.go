// Package stats is pummel's result model: the Result a load produces, as
// plain data whose struct tags are the JSON schema of `pummel -o
// result.json`, documented field by field in result.go. It builds a Result
// from the workers' recorders once the load is over (Merge), reads and
// writes it as JSON (WriteJSON, NextJSON), checks a saved one (Validate)
// and combines several exactly, histograms merged, never averaged: runs
// one after another, rate stages, parts of a sharded load (Combine).
//
// It never records on the request path (stats/record does) and never
// renders for people (stats/render does).
package stats
