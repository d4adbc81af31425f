// Package proc holds what pummel knows of the server process under test:
// it watches a running process's memory and CPU time (--pid), starts a
// server, times its startup and stops it again (--exec), and describes the
// server's executable for the published environment.
//
// It knows nothing of the load engine and never sends a request but its
// readiness probes: package measure marks the start and end of the
// measured load on a Watcher and attaches the resulting stats.ServerUsage
// to its result.
package proc

import "errors"

// ErrNoSuchProcess means a process id given to Watch names no running
// process: check the --pid value, or start the server first.
var ErrNoSuchProcess = errors.New("no such process")

// ErrExited means the process ended while pummel still needed it: before
// it became ready (Launch) or before the load started (Watcher.Idle). The
// server's log, when pummel started it, usually says why.
var ErrExited = errors.New("process exited")

// ErrNotReady means a started server never answered its readiness URL with
// an expected status within the ready timeout: check --ready-url and
// --ready-status, or raise --ready-timeout for a slow starter.
var ErrNotReady = errors.New("server not ready")
