//go:build race

package engine

// raceDetector is true when the tests run with -race, under which
// sync.Pool drops what it holds at random (crypto/tls's buffers among it).
const raceDetector = true
