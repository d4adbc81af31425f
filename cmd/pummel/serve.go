package main

import (
	"fmt"
	"io"
	"net"

	"github.com/pummel-dev/pummel/server"
	"github.com/urfave/cli/v2"
)

// serveCommand is `pummel serve`: the built-in target until Ctrl-C.
func serveCommand(stderr io.Writer) *cli.Command {
	var addr string
	return &cli.Command{
		Name:         "serve",
		Usage:        "run the built-in target: / (empty 200), /delay/{ms}, /status/{code}, /bytes/{n}",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Destination: &addr, Usage: "listen on `ADDR`"},
		},
		Action: func(c *cli.Context) error {
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return exitError{exitFailed, fmt.Sprintf("serve: --addr %s: %v", addr, err)}
			}
			srv := server.New()
			fmt.Fprintf(stderr, "pummel serve: listening on http://%s/\n", ln.Addr())
			done := make(chan error, 1)
			go func() { done <- srv.Serve(ln) }()
			select {
			case err := <-done:
				return err
			case <-c.Context.Done():
				return srv.Shutdown()
			}
		},
	}
}
