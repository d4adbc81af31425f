//go:build unix

package proc

import (
	"context"
	"errors"
	"slices"
	"syscall"

	"github.com/shirou/gopsutil/v4/process"
)

// member is a process found under the server. Its start time tells it
// from an unrelated process that was given the same pid after it exited,
// which must never be signalled.
type member struct {
	pid     int32
	created int64 // milliseconds since the epoch, as gopsutil reads it
}

// tree is the server's descendants wherever their process group: a child
// that called setsid is out of reach of the group's signals, and once its
// parent has exited it is a child of init, with nothing left to find it
// by. So Stop collects the tree while the server still runs, before
// sending any signal.
type tree []member

// findTree returns the running descendants of roots.
func findTree(roots ...int32) tree {
	ctx := context.Background()
	var t tree
	for _, p := range descendants(ctx, roots...) {
		if created, err := p.CreateTimeWithContext(ctx); err == nil {
			t = append(t, member{pid: p.Pid, created: created})
		}
	}
	return t
}

// grow adds the descendants of the tree's members that still run, and of
// roots: processes started since the tree was found.
func (t tree) grow(roots ...int32) tree {
	for _, m := range t {
		if m.running() {
			roots = append(roots, m.pid)
		}
	}
	for _, m := range findTree(roots...) {
		if !slices.Contains(t, m) {
			t = append(t, m)
		}
	}
	return t
}

// signal sends SIGTERM (or SIGKILL with kill) to every member still
// running; one that is gone meanwhile is not an error.
func (t tree) signal(kill bool) error {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	var errs []error
	for _, m := range t {
		if !m.running() {
			continue
		}
		if err := syscall.Kill(int(m.pid), sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// running reports whether a member of the tree still runs: its pid
// names a process started when it was, and not a zombie (which runs no
// more; its reaping is up to its parent).
func (t tree) running() bool {
	for _, m := range t {
		if m.running() {
			return true
		}
	}
	return false
}

func (m member) running() bool {
	ctx := context.Background()
	p := &process.Process{Pid: m.pid}
	created, err := p.CreateTimeWithContext(ctx)
	return err == nil && created == m.created && !isZombie(ctx, p)
}
