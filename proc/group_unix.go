//go:build unix

package proc

import (
	"context"
	"errors"
	"syscall"

	"github.com/shirou/gopsutil/v4/process"
)

// checkPlatform reports whether Launch can run here: it can on Unix.
func checkPlatform() error { return nil }

// groupAttr puts the child in a new process group whose id is its pid,
// so that signals reach everything it starts.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends SIGTERM (or SIGKILL with kill) to the process group
// pgid. A group that no longer exists is not an error.
func signalGroup(pgid int, kill bool) error {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	if err := syscall.Kill(-pgid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// groupAlive reports whether process group pgid still has a running
// member. Zombies do not count: an orphaned member that exited waits for
// init to reap it, which can take a second or more, and no signal can
// hurry that.
func groupAlive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	return hasRunningMember(pgid)
}

// hasRunningMember scans the process table for a member of group pgid
// that is not a zombie. When the table cannot be read it assumes one.
func hasRunningMember(pgid int) bool {
	ctx := context.Background()
	pids, err := process.PidsWithContext(ctx)
	if err != nil {
		return true
	}
	for _, pid := range pids {
		if g, err := syscall.Getpgid(int(pid)); err == nil && g == pgid && !isZombie(ctx, &process.Process{Pid: pid}) {
			return true
		}
	}
	return false
}
