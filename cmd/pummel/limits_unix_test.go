//go:build unix

package main

import (
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

func TestRaiseFileLimit(t *testing.T) {
	var orig syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &orig); err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_NOFILE, &orig) })
	if orig.Max < 1024 {
		t.Skipf("hard limit %d is too low to test", orig.Max)
	}
	low := orig
	low.Cur = 256
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Skip(err)
	}
	if err := raiseFileLimit(500); err != nil {
		t.Fatalf("raiseFileLimit(500) = %v with a hard limit of %d", err, orig.Max)
	}
	var now syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &now) //nolint:errcheck // read above
	if now.Cur < 500+fdSlack {
		t.Errorf("soft limit %d, want at least %d", now.Cur, 500+fdSlack)
	}
	if orig.Max < 1<<40 {
		err := raiseFileLimit(int(orig.Max))
		if err == nil || !strings.Contains(err.Error(), "ulimit") || !strings.Contains(err.Error(), "-c ") {
			t.Errorf("over the hard limit: %v, want one line saying what to run", err)
		}
	}
}

// A part of a sharded load needs open files for its share of -c, not for
// the whole load's: under ulimit -n 256, one part of -c 1000 over 10
// holds 100 connections and runs.
func TestFileLimitCountsThePartsConnections(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"whole load", []string{"-c", "100", "-n", "100"}},
		{"one part of ten", []string{"--shard", "0/10", "-c", "1000", "-n", "1000"}},
	}
	bin, url := pummelBinary(t), targetURL(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// ulimit -n sets the hard limit too, which no child may raise.
			cmd := exec.Command("sh", "-c", `ulimit -n 256 || exit 99; exec "$@"`, "sh", bin)
			cmd.Args = append(append(cmd.Args, tt.args...), "-q", url)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if errors.As(err, &exit) && exit.ExitCode() == 99 {
				t.Skipf("cannot set ulimit -n 256: %s", out)
			}
			if err != nil {
				t.Errorf("under ulimit -n 256: %v\n%s", err, out)
			}
		})
	}
}
