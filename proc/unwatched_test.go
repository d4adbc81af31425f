//go:build unix

package proc

import (
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"
)

// TestUnwatchedNamesTheChildrenLeftOut watches a shell whose two children
// (sleep) do the work, as a launcher's would: without Tree, the load's
// end names them once; with Tree, their figures count and none is named.
func TestUnwatchedNamesTheChildrenLeftOut(t *testing.T) {
	t.Parallel()
	for _, tree := range []bool{false, true} {
		cmd := exec.Command("sh", "-c", "sleep 30 & sleep 30 & wait")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) //nolint:errcheck // gone already is fine
			cmd.Wait()                                      //nolint:errcheck // killed
		})
		w, err := Watch(cmd.Process.Pid, WatchOptions{Every: 10 * time.Millisecond, Tree: tree})
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, func() bool { return len(descendants(t.Context(), int32(cmd.Process.Pid))) == 2 }, 5*time.Second)
		w.StartLoad()
		if got := w.Unwatched(); got != nil {
			t.Errorf("tree %v: %q before the load's end, want nothing", tree, got)
		}
		w.EndLoad()
		want := []string{"sleep"}
		if tree {
			want = nil
		}
		if got := w.Unwatched(); !slices.Equal(got, want) {
			t.Errorf("tree %v: Unwatched %q, want %q", tree, got, want)
		}
		w.Stop()
	}
}
