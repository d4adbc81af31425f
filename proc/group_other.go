//go:build !unix

package proc

import (
	"errors"
	"fmt"
	"runtime"
	"syscall"
)

// errNoGroups means process groups, which Launch relies on to stop a
// server and everything it started, are not available here.
var errNoGroups = errors.New("process groups are not supported")

// checkPlatform reports that Launch cannot run here.
func checkPlatform() error {
	return fmt.Errorf("--exec: starting the server is supported on Unix-like systems only, not %s", runtime.GOOS)
}

// groupAttr returns no attributes: there are no process groups here.
func groupAttr() *syscall.SysProcAttr { return nil }

// signalGroup cannot signal a group here.
func signalGroup(int, bool) error { return errNoGroups }

// groupAlive cannot tell here; Launch never starts a process anyway.
func groupAlive(int) bool { return false }

// tree is always empty here: Launch never starts a process.
type tree []struct{}

func (t tree) grow(...int32) tree { return t }
func (t tree) signal(bool) error  { return nil }
func (t tree) running() bool      { return false }
