// Command pummel is an HTTP load generator: wrk's and ab's command lines,
// honest latency, and results ready to publish. See README.md.
//
// It is the command line only: the one place that parses flags, checks
// them before any load, picks renderers and decides exit codes. It
// generates no load, measures nothing and renders nothing itself: it
// calls engine, measure, suite and stats/render for that.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// A closed terminal (SIGHUP) is a Ctrl-C: the results so far are
	// written and printed.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() { <-ctx.Done(); stop() }() // a second Ctrl-C ends pummel at once
	// Catching SIGPIPE makes a write to a closed stdout fail with EPIPE
	// (handled by stdoutWriter) instead of killing pummel before it writes
	// its files. Catching rather than ignoring it leaves --exec servers
	// with the default SIGPIPE behaviour, since an ignored signal would
	// stay ignored in them.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}
