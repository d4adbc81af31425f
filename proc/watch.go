package proc

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/shirou/gopsutil/v4/process"

	"github.com/pummel-dev/pummel/internal/wait"
	"github.com/pummel-dev/pummel/stats"
)

// Defaults for watching a process (--sample-interval and the idle figure).
const (
	// DefaultSampleInterval is how often a Watcher samples.
	DefaultSampleInterval = 100 * time.Millisecond
	// DefaultIdleSamples is how many samples Idle takes.
	DefaultIdleSamples = 5
	// DefaultIdleGap is the time between Idle's samples.
	DefaultIdleGap = 100 * time.Millisecond
)

// WatchOptions configures Watch. The zero value samples the process alone
// every DefaultSampleInterval.
type WatchOptions struct {
	// Every is the sampling interval (--sample-interval); 0 or less
	// means DefaultSampleInterval.
	Every time.Duration
	// Tree adds the process's descendants (--pid-tree): their RSS and
	// CPU times are summed with the process's own.
	Tree bool
}

// Watcher samples one process's RSS and CPU time on its own goroutine and
// turns the samples into a stats.ServerUsage. Its methods are safe for
// concurrent use. Create one with Watch and end it with Stop; for a server
// started with Launch, stop the Watcher before the Process, or the planned
// stop is reported as an exit.
type Watcher struct {
	pid     int
	started time.Time     // when Watch was called; Sample offsets count from it
	quit    chan struct{} // closed by Stop to end the sampling goroutine
	done    chan struct{} // closed by the sampling goroutine as it ends
	stop    sync.Once     // runs Stop's work once

	// sampleMu serialises readings, so the series stays in time order;
	// it guards sampler. Lock order: sampleMu, then mu.
	sampleMu sync.Mutex
	sampler  *sampler

	mu        sync.Mutex // guards every field below
	series    []Sample
	lastCPU   float64 // CPU seconds at the latest good reading
	idle      int64
	loading   bool // between StartLoad and EndLoad
	loaded    bool // EndLoad ran
	loadEnd   time.Time
	loadStart time.Time
	cpuStart  float64
	cpuEnd    float64
	peak      int64
	after     int64
	exited    bool
	exitAt    time.Time
	exitWhy   string
	usage     stats.ServerUsage // Stop's result
}

// Watch starts sampling the process pid: its RSS and CPU time (user +
// system), with its descendants' when opt.Tree is set, every opt.Every,
// until Stop. It fails if no process pid runs ("--pid 1234: no such
// process") or if its figures cannot be read; a process that exits later
// is reported by Stop, not as an error.
func Watch(pid int, opt WatchOptions) (*Watcher, error) {
	root, err := findProcess(pid)
	if err != nil {
		return nil, err
	}
	w := &Watcher{
		pid:     pid,
		started: time.Now(),
		quit:    make(chan struct{}),
		done:    make(chan struct{}),
		sampler: newSampler(root, opt.Tree),
	}
	switch r := w.sample(); {
	case r.gone:
		return nil, fmt.Errorf("--pid %d: %w (%s)", pid, ErrNoSuchProcess, r.why)
	case r.err != nil:
		return nil, fmt.Errorf("--pid %d: reading its memory and CPU time: %w", pid, r.err)
	}
	every := opt.Every
	if every <= 0 {
		every = DefaultSampleInterval
	}
	go w.loop(every)
	return w, nil
}

// findProcess returns a gopsutil handle on a running process.
func findProcess(pid int) (*process.Process, error) {
	if pid <= 0 || pid > math.MaxInt32 {
		return nil, fmt.Errorf("--pid %d: not a process id", pid)
	}
	p, err := process.NewProcess(int32(pid))
	if errNotRunning(err) {
		return nil, fmt.Errorf("--pid %d: %w", pid, ErrNoSuchProcess)
	}
	if err != nil {
		return nil, fmt.Errorf("--pid %d: %w", pid, err)
	}
	return p, nil
}

// loop samples every interval until Stop or until the process is gone.
func (w *Watcher) loop(every time.Duration) {
	defer close(w.done)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-w.quit:
			return
		case <-tick.C:
		}
		if r := w.sample(); r.gone {
			return
		}
	}
}

// sample takes one reading and records it.
func (w *Watcher) sample() reading {
	w.sampleMu.Lock()
	defer w.sampleMu.Unlock()
	return w.sampleLocked(nil)
}

// sampleLocked takes one reading and records it, then runs then (if not
// nil) with mu held. w.sampleMu must be held.
func (w *Watcher) sampleLocked(then func(r reading)) reading {
	r := reading{at: time.Now(), gone: true}
	if !w.isExited() {
		r = w.sampler.read(context.Background())
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.record(r)
	if then != nil {
		then(r)
	}
	return r
}

// isExited reports whether the process has been found gone (exited, or a
// zombie waiting to be reaped) by a sample so far.
func (w *Watcher) isExited() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.exited
}

// record adds a reading to the state. w.mu must be held.
func (w *Watcher) record(r reading) {
	switch {
	case r.gone:
		if !w.exited {
			w.exited, w.exitAt, w.exitWhy = true, r.at, r.why
		}
	case r.err == nil:
		w.series = append(w.series, Sample{Offset: r.at.Sub(w.started), RSSBytes: r.rss, CPUSeconds: r.cpu})
		w.lastCPU = r.cpu
		if w.loading {
			w.peak = max(w.peak, r.rss)
		}
	}
	// A failed read of a live process is skipped: the next one may work.
}

// Idle takes n samples gap apart (DefaultIdleSamples and DefaultIdleGap
// when 0 or less) and returns their median RSS: the idle figure, to take
// just before the load starts. It fails if ctx ends or the process exits
// meanwhile (ErrExited).
func (w *Watcher) Idle(ctx context.Context, n int, gap time.Duration) (int64, error) {
	if n <= 0 {
		n = DefaultIdleSamples
	}
	if gap <= 0 {
		gap = DefaultIdleGap
	}
	var rss []int64
	var lastErr error
	for i := range n {
		if i > 0 {
			if err := wait.For(ctx, gap); err != nil {
				return 0, fmt.Errorf("sampling the idle RSS of pid %d: %w", w.pid, err)
			}
		}
		switch r := w.sample(); {
		case r.gone:
			w.mu.Lock()
			why := w.exitWhy // r's is "" once a sample before it saw the exit
			w.mu.Unlock()
			return 0, fmt.Errorf("pid %d: %w before the load (%s)", w.pid, ErrExited, why)
		case r.err != nil:
			lastErr = r.err
		default:
			rss = append(rss, r.rss)
		}
	}
	if len(rss) == 0 {
		return 0, fmt.Errorf("sampling the idle RSS of pid %d: %w", w.pid, lastErr)
	}
	idle := stats.Median(rss)
	w.mu.Lock()
	w.idle = idle
	w.mu.Unlock()
	return idle, nil
}

// StartLoad marks the start of the measured load: peak RSS and CPU time
// count from here, beginning with a sample taken right away.
func (w *Watcher) StartLoad() {
	w.sampleMu.Lock()
	defer w.sampleMu.Unlock()
	w.mu.Lock()
	w.loading, w.loaded, w.loadStart, w.peak = true, false, time.Now(), 0
	w.mu.Unlock()
	w.sampleLocked(func(reading) { w.cpuStart = w.lastCPU })
}

// EndLoad marks the end of the measured load. It takes the "after" RSS
// sample right away; the CPU time of the load is the CPU time now less
// that at StartLoad (up to the last sample if the process exited).
func (w *Watcher) EndLoad() {
	w.sampleMu.Lock()
	defer w.sampleMu.Unlock()
	w.sampleLocked(func(r reading) {
		if w.loading {
			w.loading, w.loaded, w.cpuEnd, w.loadEnd = false, true, w.lastCPU, time.Now()
		}
		if !r.gone && r.err == nil {
			w.after = r.rss
		}
	})
}
