//go:build unix

package measure

import (
	"bufio"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/proc"
)

// TestLoadWarnsOfChildrenLeftOut watches a launcher whose child would be
// the server: the result warns that the child's figures are left out,
// naming it and the way to count it (TreeFlag), unless they are counted.
func TestLoadWarnsOfChildrenLeftOut(t *testing.T) {
	cfg := requestsToFixture(t, 20)
	for _, tree := range []bool{false, true} {
		cmd := exec.Command("sh", "-c", "sleep 30 & echo started; wait")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) //nolint:errcheck // gone already is fine
			cmd.Wait()                                      //nolint:errcheck // killed
		})
		if _, err := bufio.NewReader(out).ReadString('\n'); err != nil { // the child runs
			t.Fatal(err)
		}
		w, err := Attach([]int{cmd.Process.Pid}, Options{WatchOptions: proc.WatchOptions{Tree: tree}, TreeFlag: "server.tree: true"})
		if err != nil {
			t.Fatal(err)
		}
		for end := time.Now().Add(5 * time.Second); !tree && !slices.Equal(w.Watchers()[0].Unwatched(), []string{"sleep"}); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(end) { // the child forked, but still runs as sh
				t.Fatalf("the shell's child: %q, want sleep", w.Watchers()[0].Unwatched())
			}
		}
		res, err := w.Load(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		warned := strings.Join(res.Warnings, "\n")
		want := !tree
		if got := strings.Contains(warned, "the server process sh has child processes (sleep)") && strings.Contains(warned, "server.tree: true counts them"); got != want {
			t.Errorf("tree %v: warnings %q, want the child named: %v", tree, res.Warnings, want)
		}
	}
}
