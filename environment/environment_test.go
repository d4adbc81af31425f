package environment

import (
	"runtime"
	"runtime/debug"
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

func TestDescribeBuild(t *testing.T) {
	info := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "61423ba8c1e2f00d"}, {Key: "vcs.time", Value: "2026-03-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	platform := runtime.GOOS + "/" + runtime.GOARCH
	tests := []struct {
		name   string
		linked Linked
		info   *debug.BuildInfo
		want   Build
	}{
		{"go build in a work tree", Linked{}, info,
			Build{Version: "devel-61423ba8c1e2-dirty", Commit: "61423ba8c1e2f00d", Modified: true, Date: "2026-03-01T10:00:00Z", Go: runtime.Version(), Platform: platform}},
		{"scripts/build.sh", Linked{Version: "v1.2.0", Commit: "abc", Date: "2026-03-02T00:00:00Z"}, &debug.BuildInfo{},
			Build{Version: "v1.2.0", Commit: "abc", Date: "2026-03-02T00:00:00Z", Go: runtime.Version(), Platform: platform}},
		{"no build info", Linked{}, nil, Build{Version: "unknown", Go: runtime.Version(), Platform: platform}},
	}
	for _, tt := range tests {
		if got := describeBuild(tt.linked, tt.info); got != tt.want {
			t.Errorf("%s: %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
	text := describeBuild(Linked{Version: "v1.2.0"}, nil).String()
	want := "pummel v1.2.0\n  commit  unknown\n  built   unknown\n  go      " + runtime.Version() + " " + platform + "\n"
	if text != want {
		t.Errorf("String() = %q, want %q", text, want)
	}
}
