package proc

import (
	"math"
	"slices"
	"time"

	"github.com/pummel-dev/pummel/stats"
)

// Stop ends the sampling (ending the load first if StartLoad ran without
// EndLoad, as on Ctrl-C) and returns what was observed: the pid, the idle,
// peak and after RSS, the CPU seconds of the load and, if the process was
// found gone before Stop, when and how it went. Later calls return the
// same figures; CPUUsPerRequest and StartupS are left to the caller (see
// PerRequest).
func (w *Watcher) Stop() stats.ServerUsage {
	w.stop.Do(func() {
		w.mu.Lock()
		loading := w.loading
		w.mu.Unlock()
		if loading {
			w.EndLoad()
		}
		close(w.quit)
		<-w.done
		w.mu.Lock()
		w.usage = w.usageLocked()
		w.mu.Unlock()
	})
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.usage
}

// Usage returns what was observed so far without ending the sampling:
// the figures of the latest load (StartLoad to EndLoad), for a watch over
// several loads in turn.
func (w *Watcher) Usage() stats.ServerUsage {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.usageLocked()
}

// usageLocked builds the figures from the state. w.mu must be held.
func (w *Watcher) usageLocked() stats.ServerUsage {
	u := stats.ServerUsage{
		PID:      w.pid,
		RSSBytes: stats.RSS{Idle: w.idle, Peak: w.peak, After: w.after},
	}
	if w.loaded {
		u.CPUSeconds = max(0, w.cpuEnd-w.cpuStart)
	}
	if w.exited {
		from := w.started
		if !w.loadStart.IsZero() {
			from = w.loadStart
		}
		exitS := w.exitAt.Sub(from).Seconds()
		u.ExitedDuringLoad, u.ExitS, u.ExitReason = true, &exitS, w.exitWhy
	}
	return u
}

// Series returns a copy of the samples taken so far, oldest first: the RSS
// (and CPU) time series of the process, for charts.
func (w *Watcher) Series() []Sample {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.series)
}

// LoadSeries returns the samples taken during the load (StartLoad to
// EndLoad), with offsets from its start, thinned evenly to at most
// maxPoints (0: all). Thinning can hide a spike; the peak figure cannot.
func (w *Watcher) LoadSeries(maxPoints int) []Sample {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.loadStart.IsZero() {
		return nil
	}
	from, to := w.loadStart.Sub(w.started), time.Duration(math.MaxInt64)
	if !w.loadEnd.IsZero() {
		to = w.loadEnd.Sub(w.started)
	}
	var load []Sample
	for _, s := range w.series {
		if s.Offset >= from && s.Offset <= to {
			s.Offset -= from
			load = append(load, s)
		}
	}
	if maxPoints <= 0 || len(load) <= maxPoints {
		return load
	}
	thin := make([]Sample, maxPoints)
	for i := range thin {
		thin[i] = load[i*(len(load)-1)/(maxPoints-1)]
	}
	return thin
}

// PerRequest returns u with CPUUsPerRequest set to its CPU time in
// microseconds per completed request (the framework-overhead figure); it
// is left 0 when requests is 0 or less.
func PerRequest(u stats.ServerUsage, requests int64) stats.ServerUsage {
	if requests > 0 {
		u.CPUUsPerRequest = u.CPUSeconds * 1e6 / float64(requests)
	}
	return u
}
