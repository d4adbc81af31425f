package main

import (
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/pummel-dev/pummel/target"
	"github.com/urfave/cli/v2"
)

// serveCommand is `pummel serve`: the built-in target until Ctrl-C.
func serveCommand(stderr io.Writer) *cli.Command {
	var addr, delay, capacity string
	return &cli.Command{
		Name:         "serve",
		Usage:        "run the built-in target: / (empty 200), /delay/{ms}, /status/{code}, /bytes/{n}, /requests (how many it answered)",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Destination: &addr, Usage: "listen on `ADDR` (0.0.0.0:8080 for every interface, as in a container)"},
			&cli.StringFlag{Name: "delay", Value: "0", Destination: &delay, Usage: "wait `D` (e.g. 2ms) before answering each request, to play a slower server"},
			&cli.StringFlag{Name: "capacity", Destination: &capacity, Usage: "answer at most `R` requests/s, one after another in arrival order (a queue with a fixed service time of 1/R): a server of known capacity, to check a capacity search"},
		},
		Action: func(c *cli.Context) error {
			d, err := parseDuration(delay)
			if err != nil {
				return badFlag("serve: --delay", err)
			}
			var q *queue
			if capacity != "" {
				r, err := searchRate("serve: --capacity", capacity)
				if err != nil {
					return err
				}
				q = &queue{service: time.Duration(float64(time.Second) / r)}
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return exitError{exitFailed, fmt.Sprintf("serve: --addr %s: %v", addr, err)}
			}
			if d > 0 || q != nil {
				ln = delayListener{Listener: ln, wait: func() {
					time.Sleep(d)
					if q != nil {
						q.take()
					}
				}}
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
	wait func()
}

func (l delayListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &delayConn{Conn: c, wait: l.wait}, nil
}

// delayConn waits before the first write that follows a read: once per
// response, or per batch of pipelined responses. The server reads and
// writes a connection from one goroutine, so answered needs no lock.
type delayConn struct {
	net.Conn
	wait     func()
	answered bool
}

func (c *delayConn) Read(b []byte) (int, error) {
	c.answered = false
	return c.Conn.Read(b)
}

func (c *delayConn) Write(b []byte) (int, error) {
	if !c.answered {
		c.wait()
		c.answered = true
	}
	return c.Conn.Write(b)
}

// queue serves responses one after another, each service after the one
// before it (or after it arrived, when the queue was empty): its
// capacity is exactly one per service, whatever the connections.
type queue struct {
	service time.Duration
	mu      sync.Mutex
	free    time.Time // when the queue has served everything taken so far
}

// take waits for the caller's turn and its service time.
func (q *queue) take() {
	q.mu.Lock()
	now := time.Now()
	if q.free.Before(now) {
		q.free = now
	}
	q.free = q.free.Add(q.service)
	done := q.free
	q.mu.Unlock()
	time.Sleep(time.Until(done))
}
