package proc

import (
	"context"
	"errors"
	"slices"
	"time"

	// gopsutil reads RSS and CPU times on Linux (/proc) and macOS
	// (sysctl, libproc) alike: a well-kept library beats hand-parsing
	// /proc, which would tie pummel to Linux.
	"github.com/shirou/gopsutil/v4/process"
)

// Sample is one reading of a watched process (and, with
// WatchOptions.Tree, its descendants): a point of the RSS time series.
type Sample struct {
	// Offset is the time since Watch was called.
	Offset time.Duration
	// RSSBytes is the resident set size, summed over the tree.
	RSSBytes int64
	// CPUSeconds is the user + system CPU time used since the process
	// started, summed over the tree.
	CPUSeconds float64
}

// reading is what one look at the process found.
type reading struct {
	at   time.Time
	rss  int64
	cpu  float64
	gone bool   // the process no longer runs
	why  string // how gone was decided: "no longer running", "zombie"
	err  error  // a failed read of a live process: rss and cpu are unset
}

// sampler reads a process's RSS and CPU time through gopsutil. It is not
// safe for concurrent use: Watcher serialises calls with its sampleMu.
type sampler struct {
	root *process.Process
	tree bool
	// cpu holds the last CPU time seen for each process of the tree, so a
	// child that exits keeps counting what it used and the total never
	// goes down.
	cpu map[int32]float64
}

func newSampler(root *process.Process, tree bool) *sampler {
	return &sampler{root: root, tree: tree, cpu: map[int32]float64{}}
}

// read takes one reading of the process, and of its descendants with tree.
func (s *sampler) read(ctx context.Context) reading {
	r := reading{at: time.Now()}
	rss, cpu, err := readOne(ctx, s.root)
	if err != nil || rss == 0 {
		if why := goneReason(ctx, s.root); why != "" {
			return reading{at: r.at, gone: true, why: why}
		}
	}
	if err != nil {
		return reading{at: r.at, err: err}
	}
	r.rss = rss
	s.note(s.root.Pid, cpu)
	if s.tree {
		r.rss += s.readDescendants(ctx)
	}
	for _, c := range s.cpu {
		r.cpu += c
	}
	return r
}

// note records a process's CPU time, never lowering it.
func (s *sampler) note(pid int32, cpu float64) {
	s.cpu[pid] = max(s.cpu[pid], cpu)
}

// readDescendants returns the summed RSS of the root's descendants and
// notes their CPU times. Processes that vanish meanwhile are skipped.
func (s *sampler) readDescendants(ctx context.Context) int64 {
	var rss int64
	for _, p := range descendants(ctx, s.root.Pid) {
		r, cpu, err := readOne(ctx, p)
		if err != nil {
			continue
		}
		rss += r
		s.note(p.Pid, cpu)
	}
	return rss
}

// readOne reads one process's RSS in bytes and CPU seconds (user+system).
func readOne(ctx context.Context, p *process.Process) (int64, float64, error) {
	mem, err := p.MemoryInfoWithContext(ctx)
	if err != nil {
		return 0, 0, err
	}
	times, err := p.TimesWithContext(ctx)
	if err != nil {
		return 0, 0, err
	}
	return int64(mem.RSS), times.User + times.System, nil
}

// goneReason says why the process no longer counts as running, or "" if
// it still runs. A zombie has exited but was not yet reaped by its
// parent: its memory is already freed.
func goneReason(ctx context.Context, p *process.Process) string {
	exists, err := process.PidExistsWithContext(ctx, p.Pid)
	if err == nil && !exists {
		return "no longer running"
	}
	if isZombie(ctx, p) {
		return "zombie"
	}
	return ""
}

// isZombie reports whether p has exited but is not yet reaped.
func isZombie(ctx context.Context, p *process.Process) bool {
	status, err := p.StatusWithContext(ctx)
	return err == nil && slices.Contains(status, process.Zombie)
}

// descendants lists the processes descending from any of roots (the
// roots excluded), found in one pass over the process table (cheaper than
// one gopsutil Children call per level, which rescans the table each
// time).
func descendants(ctx context.Context, roots ...int32) []*process.Process {
	pids, err := process.PidsWithContext(ctx)
	if err != nil {
		return nil
	}
	seen := map[int32]bool{} // guards against a cycle from a reused pid
	for _, r := range roots {
		seen[r] = true
	}
	children := map[int32][]int32{}
	for _, p := range pids {
		ppid, err := (&process.Process{Pid: p}).PpidWithContext(ctx)
		if err == nil && !seen[p] {
			children[ppid] = append(children[ppid], p)
		}
	}
	var out []*process.Process
	var queue []int32
	for _, r := range roots {
		queue = append(queue, children[r]...)
	}
	for ; len(queue) > 0; queue = queue[1:] {
		if p := queue[0]; !seen[p] {
			seen[p] = true
			out = append(out, &process.Process{Pid: p})
			queue = append(queue, children[p]...)
		}
	}
	return out
}

// errNotRunning tells whether a gopsutil error means the process is gone.
func errNotRunning(err error) bool {
	return errors.Is(err, process.ErrorProcessNotRunning)
}
