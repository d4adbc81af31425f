package proc

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/pummel-dev/pummel/internal/parse"
)

// Defaults for starting a server (--exec).
const (
	// DefaultReadyTimeout bounds the wait for the first good response.
	DefaultReadyTimeout = 30 * time.Second
	// DefaultSettle is the wait after the server is ready, before idle
	// RSS is sampled, so its start-up work has died down.
	DefaultSettle = 2 * time.Second
	// DefaultStopGrace is the time between SIGTERM and SIGKILL.
	DefaultStopGrace = 5 * time.Second
	// ReadyPollInterval is the pause between readiness probes: it is the
	// resolution of the startup figure.
	ReadyPollInterval = time.Millisecond
)

// Spec describes how to start a server and tell when it is ready. Zero
// fields take the defaults above.
type Spec struct {
	// Command is the argv to execute, found on $PATH as exec.Command
	// does, with no shell. With Shell, Command[0] is a script run by
	// /bin/sh -c, and Command[1:] become its $0, $1, ….
	Command []string
	Shell   bool
	// Env is added to pummel's own environment; later entries win.
	Env []string
	// Dir is the working directory; "" means pummel's.
	Dir string
	// ReadyURL is probed with a plain HTTP GET (keep-alive off, redirects
	// not followed) about every ReadyPollInterval until a response whose
	// status ReadyStatus accepts.
	ReadyURL string
	// ReadyAddress, if set, is the host:port the probes connect to
	// instead of ReadyURL's (pummel's --connect-to); the Host header and
	// TLS name stay ReadyURL's.
	ReadyAddress string
	// ReadyProtocol is what the probes speak: HTTP/1.1 (the zero value),
	// or HTTP/2 or HTTP/3 as an --http2 or --http3 load does (see
	// ReadyProtocol's constants).
	ReadyProtocol ReadyProtocol
	// ReadyTLS is the probes' TLS configuration for an https ReadyURL (a
	// load's --cacert, --insecure, --cert); nil means the system's roots.
	ReadyTLS *tls.Config
	// ReadyStatus accepts a readiness status; nil means DefaultReadyStatus.
	ReadyStatus func(status int) bool
	// ReadyTimeout bounds the wait from spawn to ready.
	ReadyTimeout time.Duration
	// Settle is the wait after ready before Launch returns: nil means
	// DefaultSettle; point at 0 for none (--settle 0).
	Settle *time.Duration
	// LogPath receives the server's stdout and stderr, replacing an
	// earlier log there once the server has started (a failed start
	// leaves it as it was);
	// "" means a new temporary file, which RemoveLog removes after a run
	// that went well and is otherwise left for the user to read.
	LogPath string
	// StopGrace is the time Stop gives the server between SIGTERM and
	// SIGKILL.
	StopGrace time.Duration
}

// DefaultReadyStatus accepts any 2xx or 3xx status, as wrk counts success.
func DefaultReadyStatus(status int) bool {
	return parse.StatusIn([]parse.StatusRange{parse.Success}, status)
}

// withDefaults validates s and fills in its defaults.
func (s Spec) withDefaults() (Spec, error) {
	if len(s.Command) == 0 || s.Command[0] == "" {
		return s, errors.New("--exec: no command to run")
	}
	if u, err := url.Parse(s.ReadyURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return s, fmt.Errorf("--ready-url %q: not an http:// or https:// URL", s.ReadyURL)
	}
	if s.Settle != nil && *s.Settle < 0 {
		return s, fmt.Errorf("--settle %s: negative", *s.Settle)
	}
	if s.ReadyStatus == nil {
		s.ReadyStatus = DefaultReadyStatus
	}
	if s.ReadyTimeout <= 0 {
		s.ReadyTimeout = DefaultReadyTimeout
	}
	if s.Settle == nil {
		settle := DefaultSettle
		s.Settle = &settle
	}
	if s.StopGrace <= 0 {
		s.StopGrace = DefaultStopGrace
	}
	return s, nil
}

// Process is a server started by Launch, in its own process group. Its
// methods are safe for concurrent use. Always call Stop.
type Process struct {
	cmd     *exec.Cmd
	pid     int
	logPath string
	tempLog bool // logPath is a temporary file Launch made
	grace   time.Duration
	spawned time.Time
	startup time.Duration // written by Launch before it returns p

	done    chan struct{} // closed once the child has been reaped
	waitErr error         // how the child ended: written before done is closed, read after

	stopOnce sync.Once
	stopErr  error // Stop's result: written inside stopOnce
}

// Launch starts the server described by s in its own process group, with
// its output going to a log file; probes s.ReadyURL until the server
// answers with an accepted status, measuring Startup from spawn to that
// response; then waits s.Settle. If the server exits first, never becomes
// ready within s.ReadyTimeout, or ctx ends, Launch kills and reaps it and
// returns a one-line error that ends with the tail of its log. ctx bounds
// only the start: the server then runs until Stop.
func Launch(ctx context.Context, s Spec) (*Process, error) {
	if err := checkPlatform(); err != nil {
		return nil, err
	}
	s, err := s.withDefaults()
	if err != nil {
		return nil, err
	}
	p, spawned, err := start(s)
	if err != nil {
		return nil, err
	}
	if err := p.awaitReady(ctx, s, spawned); err != nil {
		p.stopOnce.Do(func() { p.stopErr = p.halt(0) })
		if p.stopErr != nil {
			err = fmt.Errorf("%w (and %w)", err, p.stopErr)
		}
		return nil, fmt.Errorf("%w; %s", err, logTail(p.logPath, logTailLines))
	}
	return p, nil
}

// start spawns the server and the goroutine that reaps it. A server that
// cannot be started leaves no log file that Launch made: it would be
// empty.
func start(s Spec) (*Process, time.Time, error) {
	cmd := command(s)
	if cmd.Err != nil { // not found on $PATH: say so before making a log
		return nil, time.Time{}, fmt.Errorf("--exec: starting %q: %w", s.Command[0], cmd.Err)
	}
	log, err := openLog(s.LogPath)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer log.f.Close() // the child holds its own copy
	cmd.Env = append(os.Environ(), s.Env...)
	cmd.Dir = s.Dir
	cmd.Stdout, cmd.Stderr = log.f, log.f
	cmd.SysProcAttr = groupAttr()
	spawned := time.Now()
	if err := cmd.Start(); err != nil {
		log.abandon()
		return nil, time.Time{}, fmt.Errorf("--exec: starting %q: %w", s.Command[0], err)
	}
	log.started()
	p := &Process{cmd: cmd, pid: cmd.Process.Pid, logPath: log.path, tempLog: s.LogPath == "", grace: s.StopGrace,
		spawned: spawned, done: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	return p, spawned, nil
}

// command builds the exec.Cmd for s, through /bin/sh -c with Shell.
func command(s Spec) *exec.Cmd {
	if s.Shell {
		return exec.Command("/bin/sh", append([]string{"-c"}, s.Command...)...)
	}
	return exec.Command(s.Command[0], s.Command[1:]...)
}

// PID returns the server's process id (also its process group id).
func (p *Process) PID() int { return p.pid }

// Startup returns the time from spawn to the first good readiness response.
func (p *Process) Startup() time.Duration { return p.startup }

// LogPath returns the file holding the server's stdout and stderr.
func (p *Process) LogPath() string { return p.logPath }

// Exited reports, without blocking, whether the server has ended, and if
// so how: nil for exit status 0, else an *exec.ExitError. After Stop it is
// always true.
func (p *Process) Exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.waitErr
	default:
		return false, nil
	}
}

// ExitReason returns how the server ended ("exit status 0", "exit status
// 3", "signal: killed"), or "" while it runs: for stats.ServerUsage.
func (p *Process) ExitReason() string {
	exited, err := p.Exited()
	switch {
	case !exited:
		return ""
	case err == nil:
		return "exit status 0"
	default:
		return err.Error()
	}
}

// ExitedError describes the server, found gone while pummel still needed
// it (when: "before the load"), as Launch's errors do, on one line: how
// long after its start, its exit status, and the tail of its log, which
// usually says why (a port already in use). A watcher may see the server
// gone before it is reaped: ExitedError waits up to reapWait for that.
func (p *Process) ExitedError(when string) error {
	t := time.NewTimer(reapWait)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
	}
	return fmt.Errorf("%w; %s", p.exitedError(when, p.spawned), logTail(p.logPath, logTailLines))
}

const (
	// reapWait bounds the wait for the reaping of a server that exited on
	// its own, which its reaper does at once.
	reapWait = time.Second
	// killWait bounds the wait for the reaping of a SIGKILLed server,
	// which the kernel makes prompt.
	killWait = 5 * time.Second
	// groupPoll is how often Stop checks whether the process group is
	// empty after its leader was reaped (a scan of the process table).
	groupPoll = 10 * time.Millisecond
)

// Stop ends the server: SIGTERM to its whole process group (so children
// of a shell or a master process go too) and to every descendant that
// left the group (a child that called setsid), SIGKILL to those left after
// the grace period, and the server reaped. It is idempotent and safe to
// call after the server exited on its own; an error means a process may
// be left behind.
func (p *Process) Stop() error {
	p.stopOnce.Do(func() { p.stopErr = p.halt(p.grace) })
	return p.stopErr
}

// halt stops the server's process group and its descendants: SIGTERM and
// up to grace for them to end, then SIGKILL. With grace 0 it sends
// SIGKILL at once.
func (p *Process) halt(grace time.Duration) error {
	t := p.tree(nil) // before any signal: see tree
	if grace > 0 {
		if err := errors.Join(signalGroup(p.pid, false), t.signal(false)); err != nil {
			return fmt.Errorf("stopping the server (pid %d): %w", p.pid, err)
		}
		deadline := time.Now().Add(grace)
		if p.waitReaped(grace) && p.waitAllGone(t, deadline) {
			return nil
		}
		t = p.tree(t)
	}
	if err := errors.Join(signalGroup(p.pid, true), t.signal(true)); err != nil {
		return fmt.Errorf("killing the server (pid %d): %w", p.pid, err)
	}
	if !p.waitReaped(killWait) {
		return fmt.Errorf("killing the server (pid %d): still running %s after SIGKILL", p.pid, killWait)
	}
	if !p.waitAllGone(t, time.Now().Add(killWait)) {
		return fmt.Errorf("killing the server's processes (group %d): one still runs %s after SIGKILL", p.pid, killWait)
	}
	return nil
}

// tree adds to t the server's descendants and those of t's running
// members. Once the server is reaped its pid may name another process, so
// only t's members are searched then.
func (p *Process) tree(t tree) tree {
	if exited, _ := p.Exited(); exited {
		return t.grow()
	}
	return t.grow(int32(p.pid))
}

// waitReaped waits up to d for the server itself to be reaped.
func (p *Process) waitReaped(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		return false
	}
}

// waitAllGone waits until neither the server's process group nor t has
// a running process left, or deadline; it reports whether all are gone.
func (p *Process) waitAllGone(t tree, deadline time.Time) bool {
	for groupAlive(p.pid) || t.running() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(groupPoll)
	}
	return true
}
