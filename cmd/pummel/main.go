// Command pummel is an HTTP load generator: wrk's and ab's command lines,
// honest latency, and results ready to publish. See README.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// version is set at link time by scripts/build.sh (-X main.version=…).
var version string

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() { <-ctx.Done(); stop() }() // a second Ctrl-C ends pummel at once
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}
