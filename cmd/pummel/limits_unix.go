//go:build unix

package main

import (
	"fmt"
	"syscall"
)

// fdSlack is how many file descriptors beyond the connections a run needs
// (standard streams, outputs, the sampler, the Go runtime).
const fdSlack = 64

// raiseFileLimit makes sure the process may hold connections open sockets:
// it raises the soft RLIMIT_NOFILE up to the hard limit when needed, and
// otherwise returns an error that says what to run.
func raiseFileLimit(connections int) error {
	need := uint64(connections) + fdSlack
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return nil // nothing to check against
	}
	if lim.Cur >= need {
		return nil
	}
	if lim.Max < need {
		return fmt.Errorf("-c %d needs %d open files but the hard limit is %d: raise it (as root: ulimit -Hn %d) or use fewer connections",
			connections, need, lim.Max, need)
	}
	lim.Cur = need
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Errorf("-c %d needs %d open files: raising the limit failed (%v); run ulimit -n %d first", connections, need, err, need)
	}
	return nil
}
