package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/parse"
	"github.com/pummel-dev/pummel/measure"
	"github.com/pummel-dev/pummel/proc"
)

// watchPlan is what the options say about the server under test.
type watchPlan struct {
	pids  []int
	watch proc.WatchOptions
	exec  *proc.Spec // nil without --exec
	runs  int
	// server is the --exec server of one run, watched as pids[0]; nil
	// for --pid processes, which pummel did not start.
	server *proc.Process
}

// watchPlan reads --pid, --pid-tree, --sample-interval, --exec and the
// readiness flags; rules are the load's --connect-to and --resolve rules,
// parsed already.
func (o *options) watchPlan(rules []engine.ConnectTo) (watchPlan, error) {
	var p watchPlan
	for _, s := range o.pids.Value() {
		pid, err := strconv.Atoi(s)
		if err != nil || pid < 1 {
			return p, usageError{fmt.Sprintf("--pid: %q is not a process id", s)}
		}
		p.pids = append(p.pids, pid)
	}
	every, err := parseDuration(o.sampleInterval)
	if err != nil || every < time.Millisecond {
		return p, badFlag("--sample-interval", orNeed(err, "at least 1ms"))
	}
	p.watch = proc.WatchOptions{Every: every, Tree: o.pidTree}
	n, err := parseCount(o.runs)
	if err != nil || n < 1 || n > measure.MaxRuns {
		return p, badFlag("--runs", orRange(err, o.runs, measure.MaxRuns))
	}
	p.runs = int(n)
	if o.exec == "" {
		if p.runs > 1 {
			return p, usageError{"--runs: repeating needs --exec, which starts a fresh server for each run"}
		}
		return p, nil
	}
	p.exec, err = o.execSpec(rules)
	return p, err
}

// execSpec reads --exec and its readiness flags; the readiness probes
// follow rules (see readyAddress).
func (o *options) execSpec(rules []engine.ConnectTo) (*proc.Spec, error) {
	s := &proc.Spec{Shell: o.execShell, ReadyURL: o.readyURL, LogPath: o.serverLog}
	if o.execShell {
		s.Command = []string{o.exec}
	} else {
		s.Command = strings.Fields(o.exec)
	}
	if len(s.Command) == 0 {
		return nil, usageError{"--exec: give the server's command line"}
	}
	if s.ReadyURL == "" {
		s.ReadyURL = o.defaultReadyURL()
	}
	s.ReadyAddress = readyAddress(s.ReadyURL, rules)
	switch { // as the load speaks
	case o.http2:
		s.ReadyProtocol = proc.ReadyHTTP2
	case o.http3:
		s.ReadyProtocol = proc.ReadyHTTP3
	}
	var err error
	if s.ReadyTLS, err = o.tls(); err != nil { // the load's trust: its --cacert, --insecure, --cert
		return nil, err
	}
	if s.ReadyTimeout, err = parseDuration(o.readyTimeout); err != nil || s.ReadyTimeout == 0 {
		return nil, badFlag("--ready-timeout", orNeed(err, "a positive duration"))
	}
	settle, err := parseDuration(o.settle)
	if err != nil {
		return nil, badFlag("--settle", err)
	}
	s.Settle = &settle
	if o.readyStatus != "" {
		ranges, err := parseStatuses(o.readyStatus)
		if err != nil {
			return nil, badFlag("--ready-status", err)
		}
		s.ReadyStatus = func(code int) bool { return parse.StatusIn(ranges, code) }
	}
	return s, nil
}
