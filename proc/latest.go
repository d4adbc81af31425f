package proc

// Latest returns the latest good sample of the process and its pid, for
// a live display or an exporter; ok is false before the first. It does
// not wait for a sample: it returns the one the watcher took last.
func (w *Watcher) Latest() (s Sample, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.series) == 0 {
		return Sample{}, false
	}
	return w.series[len(w.series)-1], true
}

// PID is the process's id.
func (w *Watcher) PID() int { return w.pid }
