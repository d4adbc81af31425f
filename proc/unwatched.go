package proc

import (
	"context"
	"slices"

	"github.com/shirou/gopsutil/v4/process"
)

// maxUnwatchedNames bounds the names Unwatched returns.
const maxUnwatchedNames = 3

// Unwatched returns the names of the process's descendants, read now,
// when the watch leaves them out (WatchOptions.Tree unset): what they use
// is in no figure. A launcher that starts the server as its child
// (timeout, npm start, go run) is then all that is measured. The names
// are distinct, at most three; nil with Tree, once the process was found
// gone (its pid may be another's), or with no descendant. It reads every
// process's parent: call it once a load ended, not while one runs.
func (w *Watcher) Unwatched() []string {
	if w.sampler.tree || w.isExited() {
		return nil
	}
	var names []string
	for _, p := range descendants(context.Background(), int32(w.pid)) {
		name, err := p.Name()
		if err != nil || name == "" || slices.Contains(names, name) {
			continue
		}
		if names = append(names, name); len(names) == maxUnwatchedNames {
			break
		}
	}
	return names
}

// Name returns the process's command name ("" once it cannot be read).
func (w *Watcher) Name() string {
	name, _ := (&process.Process{Pid: int32(w.pid)}).Name() // a handle of its own: the sampler's caches what it reads
	return name
}
