package main

import (
	"fmt"
	"io"
	"net"
	"time"

	"github.com/pummel-dev/pummel/target"
	"github.com/urfave/cli/v2"
)

// serveCommand is `pummel serve`: the built-in target until Ctrl-C.
func serveCommand(stderr io.Writer) *cli.Command {
	var addr, delay string
	return &cli.Command{
		Name:         "serve",
		Usage:        "run the built-in target: / (empty 200), /delay/{ms}, /status/{code}, /bytes/{n}",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Destination: &addr, Usage: "listen on `ADDR` (0.0.0.0:8080 for every interface, as in a container)"},
			&cli.StringFlag{Name: "delay", Value: "0", Destination: &delay, Usage: "wait `D` (e.g. 2ms) before answering each request, to play a slower server"},
		},
		Action: func(c *cli.Context) error {
			d, err := parseDuration(delay)
			if err != nil {
				return badFlag("serve: --delay", err)
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return exitError{exitFailed, fmt.Sprintf("serve: --addr %s: %v", addr, err)}
			}
			if d > 0 {
				ln = delayListener{ln, d}
			}
			srv := target.New()
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

// delayListener hands out connections that wait before each response.
type delayListener struct {
	net.Listener
	delay time.Duration
}

func (l delayListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &delayConn{Conn: c, delay: l.delay}, nil
}

// delayConn waits before the first write that follows a read: once per
// response, or per batch of pipelined responses. The server reads and
// writes a connection from one goroutine, so answered needs no lock.
type delayConn struct {
	net.Conn
	delay    time.Duration
	answered bool
}

func (c *delayConn) Read(b []byte) (int, error) {
	c.answered = false
	return c.Conn.Read(b)
}

func (c *delayConn) Write(b []byte) (int, error) {
	if !c.answered {
		time.Sleep(c.delay)
		c.answered = true
	}
	return c.Conn.Write(b)
}
