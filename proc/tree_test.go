//go:build unix

package proc

import (
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStopEndsDescendantsThatLeftTheGroup starts the server behind a
// shell that first puts a child in a session of its own (setsid), out of
// reach of the group's signals, as a server that daemonises a helper
// does. Each such process prints "pid N" to the log; after Stop none may
// be left running.
func TestStopEndsDescendantsThatLeftTheGroup(t *testing.T) {
	t.Parallel()
	const grace = 300 * time.Millisecond
	tests := []struct {
		name    string
		escapee string // a shell command run under setsid in the background
		pids    int    // the pids the escapee prints
	}{
		{name: "child in its own session", escapee: `echo "pid $$"; exec sleep 300`, pids: 1},
		{name: "child that ignores SIGTERM", escapee: `trap "" TERM; echo "pid $$"; exec sleep 300`, pids: 1},
		{name: "grandchild in its own session", escapee: `sleep 300 & echo "pid $$"; echo "pid $!"; wait`, pids: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := testSpec(t)
			s.StopGrace = grace
			script := "setsid sh -c '" + tt.escapee + "' & exec " + strings.Join(s.Command, " ")
			s.Command, s.Shell = []string{script}, true
			p := launch(t, s)
			escaped := escapees(t, s.LogPath, p.PID(), tt.pids)
			t.Cleanup(func() { // whatever Stop did, leave nothing running
				for _, pid := range escaped {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			})
			for _, pid := range escaped {
				if g, err := syscall.Getpgid(pid); err != nil || g == p.PID() {
					t.Fatalf("pid %d in group %d (%v): the test needs it outside the server's group %d", pid, g, err, p.PID())
				}
			}
			if err := p.Stop(); err != nil {
				t.Fatalf("Stop: %v", err)
			}
			for _, pid := range append(escaped, p.PID()) {
				assertGone(t, pid)
			}
		})
	}
}

// escapees waits for the log to show n pids besides the server's own and
// returns them.
func escapees(t *testing.T, logPath string, server, n int) []int {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		pids := slices.DeleteFunc(logPIDs(t, logPath), func(pid int) bool { return pid == server })
		if len(pids) >= n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("the log shows pids %v besides the server's %d, want %d", pids, server, n)
		}
	}
}
