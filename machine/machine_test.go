package machine

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestDescribe(t *testing.T) {
	now := time.Date(2026, 11, 30, 4, 0, 0, 0, time.FixedZone("X", 3600))
	env := Describe("v1.2.3", now)
	if env.OS != runtime.GOOS || env.Arch != runtime.GOARCH || env.CPUs != runtime.NumCPU() {
		t.Errorf("env %+v does not describe this process", env)
	}
	if env.PummelVersion != "v1.2.3" || env.GoVersion != runtime.Version() {
		t.Errorf("versions %q, %q", env.PummelVersion, env.GoVersion)
	}
	if env.Date != "2026-11-30T03:00:00Z" {
		t.Errorf("date %q, want UTC RFC 3339", env.Date)
	}
	if runtime.GOOS == "linux" && (env.MemoryBytes == 0 || env.Kernel == "") {
		t.Errorf("on Linux memory and kernel come from /proc: %+v", env)
	}
}

func TestVersion(t *testing.T) {
	if got := Version("v9"); got != "v9" {
		t.Errorf("Version(v9) = %q: the linked version wins", got)
	}
	if got := Version(""); got == "" || strings.ContainsAny(got, " \n") {
		t.Errorf("Version(\"\") = %q, want a build-info version", got)
	}
}
