package environment

import (
	"cmp"
	"fmt"
	"runtime"
	"runtime/debug"
)

// Build identifies a pummel binary exactly, so that a published figure
// names the tool that made it.
type Build struct {
	Version string // linked by scripts/build.sh, else from the build info
	Commit  string // the VCS revision, "" when unknown
	// Modified is true when the binary was built from a work tree with
	// uncommitted changes.
	Modified bool
	Date     string // the build date (RFC 3339), else the commit's, "" when unknown
	Go       string // the Go toolchain that built it: "go1.26.0"
	Platform string // what it was built for: "linux/amd64"
}

// Linked holds what scripts/build.sh stamps into a binary with -X; empty
// fields are read from the Go toolchain's build info.
type Linked struct {
	Version, Commit, Date string
}

// ReadBuild describes this binary from what was linked into it and the
// build info the Go toolchain records (vcs.revision, vcs.time,
// vcs.modified), which `go build` and `go install` write from a git work
// tree.
func ReadBuild(l Linked) Build {
	info, _ := debug.ReadBuildInfo()
	return describeBuild(l, info)
}

// describeBuild is ReadBuild on a given build info, which may be nil.
func describeBuild(l Linked, info *debug.BuildInfo) Build {
	b := Build{Version: l.Version, Commit: l.Commit, Date: l.Date, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	var vcsTime string
	if info != nil {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Commit = cmp.Or(b.Commit, s.Value)
			case "vcs.time":
				vcsTime = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	b.Date = cmp.Or(b.Date, vcsTime)
	b.Version = versionFrom(l.Version, info)
	return b
}

// String is what `pummel version` prints: the version, then one line
// each for the commit, the build date and the Go toolchain.
func (b Build) String() string {
	commit := cmp.Or(b.Commit, "unknown")
	if b.Modified {
		commit += " (with uncommitted changes)"
	}
	return fmt.Sprintf("pummel %s\n  commit  %s\n  built   %s\n  go      %s %s\n",
		b.Version, commit, cmp.Or(b.Date, "unknown"), b.Go, b.Platform)
}
