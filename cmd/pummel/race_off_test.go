//go:build !race

package main

// raceDetector is true when the tests run with -race, which slows the
// client and the fixtures alike.
const raceDetector = false
