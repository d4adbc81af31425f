//go:build unix

package main

import (
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
