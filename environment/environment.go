// Package environment describes where a result was measured: the machine
// (OS, CPU, memory, kernel) and the pummel build, the JSON's environment,
// so that published figures say where they come from. It never measures
// anything under load.
package environment

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/pummel-dev/pummel/stats"
)

// Describe returns the environment of this process: OS, architecture, CPU
// model and count, memory, kernel, Go version, the given pummel version and
// the current date. Facts the OS does not expose are left empty.
func Describe(version string, now time.Time) stats.Environment {
	return stats.Environment{
		OS:            runtime.GOOS,
		Arch:          runtime.GOARCH,
		CPUModel:      procField("/proc/cpuinfo", "model name"),
		CPUs:          runtime.NumCPU(),
		MemoryBytes:   memTotal(),
		Kernel:        strings.TrimSpace(readFile("/proc/sys/kernel/osrelease")),
		GoVersion:     runtime.Version(),
		PummelVersion: version,
		Date:          now.UTC().Format(time.RFC3339),
	}
}

// Version returns pummel's version: the one set at link time if any, else
// the module version and VCS revision recorded by the Go toolchain.
func Version(linked string) string {
	info, _ := debug.ReadBuildInfo()
	return versionFrom(linked, info)
}

// versionFrom is Version on a given build info, which may be nil.
func versionFrom(linked string, info *debug.BuildInfo) string {
	if linked != "" {
		return linked
	}
	if info == nil {
		return "unknown"
	}
	v := info.Main.Version
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value[:min(12, len(s.Value))]
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev != "" && (v == "" || v == "(devel)") {
		return "devel-" + rev + dirty
	}
	if v == "" {
		return "(devel)"
	}
	return v
}

func readFile(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return string(b)
}

// procField returns the value of the first "key : value" line in a /proc file.
func procField(path, key string) string {
	sc := bufio.NewScanner(bytes.NewReader([]byte(readFile(path))))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// memTotal returns the machine's memory in bytes, from /proc/meminfo.
func memTotal() uint64 {
	f := strings.Fields(procField("/proc/meminfo", "MemTotal"))
	if len(f) == 0 {
		return 0
	}
	kb, err := strconv.ParseUint(f[0], 10, 64)
	if err != nil {
		return 0
	}
	return kb * 1024
}
