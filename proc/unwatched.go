package proc

import (
	"context"
	"slices"
)

// maxUnwatchedNames bounds the names Unwatched returns.
const maxUnwatchedNames = 3

// Unwatched returns the names of the process's descendants found at the
// end of the last load (EndLoad) when the watch leaves them out
// (WatchOptions.Tree unset): what they used is in no figure. A launcher
// that starts the server as its child (timeout, npm start, go run) is
// then all that is measured. The names are distinct, at most three; nil
// with Tree, or with no descendant.
func (w *Watcher) Unwatched() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.unwatched
}

// unwatched lists the distinct names of the root's descendants, when
// the sampler leaves them out.
func (s *sampler) unwatched(ctx context.Context) []string {
	if s.tree {
		return nil
	}
	var names []string
	for _, p := range descendants(ctx, s.root.Pid) {
		name, err := p.NameWithContext(ctx)
		if err != nil || name == "" || slices.Contains(names, name) {
			continue
		}
		if names = append(names, name); len(names) == maxUnwatchedNames {
			break
		}
	}
	return names
}
