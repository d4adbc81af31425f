//go:build unix

package proc

import (
	"os/exec"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestUnwatchedNamesTheChildrenLeftOut watches a shell whose two children
// (sleep) do the work, as a launcher's would: without Tree, they are
// named once; with Tree, their figures count and none is named; once the
// shell is gone, none either.
func TestUnwatchedNamesTheChildrenLeftOut(t *testing.T) {
	t.Parallel()
	for _, tree := range []bool{false, true} {
		cmd := startWithChildren(t, 2)
		w, err := Watch(cmd.Process.Pid, WatchOptions{Every: 10 * time.Millisecond, Tree: tree})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"sleep"}
		if tree {
			want = nil
		}
		if got := w.Unwatched(); !slices.Equal(got, want) {
			t.Errorf("tree %v: Unwatched %q, want %q", tree, got, want)
		}
		if got := w.Name(); got != "sh" {
			t.Errorf("Name %q, want sh", got)
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) //nolint:errcheck // checked by Wait
		cmd.Wait()                                      //nolint:errcheck // killed
		waitFor(t, w.isExited, 5*time.Second)
		if got := w.Unwatched(); got != nil {
			t.Errorf("tree %v: Unwatched %q once the process is gone, want nothing", tree, got)
		}
		w.Stop()
	}
}

// startWithChildren starts a shell, in a process group of its own, with
// n children named sleep, and returns once they run as sleep.
func startWithChildren(t *testing.T, n int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sh", "-c", "for i in $(seq "+strconv.Itoa(n)+"); do sleep 30 & done; wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) //nolint:errcheck // gone already is fine
		cmd.Wait()                                      //nolint:errcheck // killed
	})
	waitFor(t, func() bool {
		sleeping := 0
		for _, p := range descendants(t.Context(), int32(cmd.Process.Pid)) {
			if name, err := p.Name(); err == nil && name == "sleep" {
				sleeping++
			}
		}
		return sleeping == n
	}, 5*time.Second)
	return cmd
}
