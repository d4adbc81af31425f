package proc

import (
	"os/exec"
	"path/filepath"
	"strings"
)

// isWrapper reports whether a command runs another: taskset -c 1 ./server.
func isWrapper(path string) bool {
	switch filepath.Base(path) {
	case "taskset", "nice", "ionice", "chrt", "numactl", "env", "time", "setsid":
		return true
	}
	return false
}

// ServerBinary finds the server in a command line, looking past
// wrappers and their options: the first argument after them that names an
// executable.
func ServerBinary(argv []string) string {
	if !isWrapper(argv[0]) {
		return argv[0]
	}
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-") || isWrapper(a) {
			continue
		}
		if _, err := exec.LookPath(a); err == nil {
			return a
		}
	}
	return argv[0]
}
