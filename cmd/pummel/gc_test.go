package main

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// gcLine matches a GODEBUG=gctrace=1 line: the cycle number, its start in
// seconds since the process started, and whether it was forced.
var gcLine = regexp.MustCompile(`(?m)^gc (\d+) @(\d+\.\d+)s .*?( \(forced\))?$`)

// The per-request path allocates nothing and the sampler keeps each
// second's histogram packed until the end, so the garbage collector does
// not run while the clock runs. The run's own GC trace is the witness. Its
// one forced cycle is the engine's debug.FreeOSMemory just before the
// clock starts, so the run's seconds are counted from it, whatever the
// start-up took; cycles while connections open and after the clock stops
// are allowed.
func TestNoGarbageCollectionDuringTheRun(t *testing.T) {
	_, addr := startServe(t)
	cmd := exec.Command(pummelBinary(t), "-q", "-t", "2", "-c", "8", "-d", "4s", "http://"+addr+"/")
	cmd.Env = append(os.Environ(), "GODEBUG="+strings.TrimPrefix(os.Getenv("GODEBUG")+",gctrace=1", ","))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	cycles := gcLine.FindAllStringSubmatch(stderr.String(), -1)
	clock := -1.0
	for _, m := range cycles {
		if m[3] != "" {
			clock, _ = strconv.ParseFloat(m[2], 64)
		}
	}
	if clock < 0 {
		t.Fatalf("no forced cycle before the clock:\n%s", stderr.String())
	}
	for _, m := range cycles {
		at, _ := strconv.ParseFloat(m[2], 64)
		if at > clock+0.5 && at < clock+3.5 { // 4 s on the clock, less its edges
			t.Errorf("GC cycle %s at %ss, %.2fs into the run:\n%s", m[1], m[2], at-clock, stderr.String())
		}
	}
}
