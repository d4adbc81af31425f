package proc

import (
	"os/exec"
	"testing"

	"github.com/shirou/gopsutil/v4/process"
)

// A process that exited and was reaped is "no longer running"; the watch
// tests may see it as a zombie first, so this case is checked directly.
func TestGoneReasonOfAReapedProcess(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil { // Run waits: reaped
		t.Fatal(err)
	}
	p := &process.Process{Pid: int32(cmd.Process.Pid)}
	if why := goneReason(t.Context(), p); why != "no longer running" {
		t.Errorf("goneReason = %q, want %q", why, "no longer running")
	}
}
