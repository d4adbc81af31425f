package main

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// gcLine matches a GODEBUG=gctrace=1 line's cycle number and start time
// (seconds since the process started).
var gcLine = regexp.MustCompile(`(?m)^gc (\d+) @(\d+\.\d+)s`)

// The per-request path allocates nothing and the sampler keeps each
// second's histogram packed until the end, so the garbage collector does
// not run while the clock runs. The run's own GC trace is the witness:
// cycles while connections open and after the clock stops are allowed.
func TestNoGarbageCollectionDuringTheRun(t *testing.T) {
	_, addr := startServe(t)
	const from, to = 1.0, 3.5 // the clock runs from about 0.05 s to 4.05 s
	cmd := exec.Command(pummelBinary(t), "-q", "-c", "8", "-d", "4s", "http://"+addr+"/")
	cmd.Env = append(os.Environ(), "GODEBUG=gctrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	for _, m := range gcLine.FindAllStringSubmatch(stderr.String(), -1) {
		at, _ := strconv.ParseFloat(m[2], 64)
		if at > from && at < to {
			t.Errorf("GC cycle %s at %ss, during the run:\n%s", m[1], m[2], stderr.String())
		}
	}
}
