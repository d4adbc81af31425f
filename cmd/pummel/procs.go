package main

import (
	"os"
	"runtime"
)

// runtimeHeadroom is the Ps kept beside the event loops' own: one for the
// goroutine that ticks the clock and samples, one for the garbage collector
// and the runtime's other work.
const runtimeHeadroom = 2

// procsFor returns the GOMAXPROCS a run with loops event-loop threads
// wants: a P for every loop plus runtimeHeadroom, at most cpus (the CPUs
// the process may run on) and never below current (the runtime's default,
// which since Go 1.25 also follows a container's CPU limit).
func procsFor(loops, cpus, current int) int {
	return max(min(loops+runtimeHeadroom, cpus), current)
}

// raiseProcs sets GOMAXPROCS for a run of loops threads, unless the user
// chose it through the GOMAXPROCS environment variable.
func raiseProcs(loops int) {
	if os.Getenv("GOMAXPROCS") != "" {
		return
	}
	current := runtime.GOMAXPROCS(0)
	if n := procsFor(loops, runtime.NumCPU(), current); n != current {
		runtime.GOMAXPROCS(n)
	}
}
