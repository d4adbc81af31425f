//go:build !unix

package engine

// RaiseFileLimit does nothing where there is no RLIMIT_NOFILE.
func RaiseFileLimit(connections int) error { return nil }
