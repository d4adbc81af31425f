package main

import (
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/panjf2000/gnet/v2"
)

// gnetConn is the gnet connection a session keeps.
type gnetConn = gnet.Conn

// gnetHandler is the gnet client's event handler: every callback runs on
// the event loop that owns the connection.
type gnetHandler struct {
	gnet.BuiltinEventEngine
	request  []byte
	stopping atomic.Bool
	dropped  atomic.Int64 // connections closed before the run stopped
}

// OnOpen keeps the connection for its first request, which runGnet
// sends once every connection is open, as pummel and wrk start: gnet's
// Dial waits for a busy loop, so dialing 10,000 connections while the
// first ones already ran took minutes.
func (h *gnetHandler) OnOpen(c gnet.Conn) ([]byte, gnet.Action) {
	c.Context().(*session).conn = c
	return nil, gnet.None
}

// OnTraffic takes what the loop read (gnet's own buffer, no copy) and
// writes the next request for each response it completed.
func (h *gnetHandler) OnTraffic(c gnet.Conn) gnet.Action {
	s := c.Context().(*session)
	data, _ := c.Next(-1)
	for range s.feed(data) {
		s.answered(time.Now())
		if _, err := c.Write(h.request); err != nil {
			return gnet.Close
		}
	}
	return gnet.None
}

// OnClose counts a connection that closed while the load ran.
func (h *gnetHandler) OnClose(_ gnet.Conn, err error) gnet.Action {
	if !h.stopping.Load() {
		h.dropped.Add(1)
		fmt.Fprintln(os.Stderr, "eventlib: gnet: connection closed:", err)
	}
	return gnet.None
}

// runGnet runs the load with gnet v2's client: its own event loops
// (NumEventLoop of them) that connections dialed by Client.Dial join.
func runGnet(cfg config, sessions []*session, hold func()) error {
	h := &gnetHandler{request: cfg.request}
	cli, err := gnet.NewClient(h,
		gnet.WithNumEventLoop(cfg.loops),
		gnet.WithTCPNoDelay(gnet.TCPNoDelay),
		gnet.WithLogger(quietLogger{}))
	if err != nil {
		return err
	}
	if err := cli.Start(); err != nil {
		return err
	}
	for _, s := range sessions {
		if _, err := cli.DialContext("tcp", cfg.addr, s); err != nil {
			h.stopping.Store(true)
			cli.Stop() //nolint:errcheck // the dial's error is the one to report
			return err
		}
	}
	for _, s := range sessions {
		s.sent = time.Now()
		if err := s.conn.AsyncWrite(h.request, nil); err != nil {
			return err
		}
	}
	hold()
	h.stopping.Store(true)
	if err := cli.Stop(); err != nil {
		return err
	}
	if n := h.dropped.Load(); n > 0 {
		fmt.Fprintf(os.Stderr, "eventlib: gnet: %d connections closed during the run\n", n)
	}
	return nil
}

// quietLogger keeps gnet's default logger, which writes to stdout, off
// the count main prints there; warnings and errors go to stderr.
type quietLogger struct{}

func (quietLogger) Debugf(string, ...any) {}
func (quietLogger) Infof(string, ...any)  {}
func (quietLogger) Warnf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "gnet: "+format+"\n", args...)
}
func (quietLogger) Errorf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "gnet: "+format+"\n", args...)
}
func (quietLogger) Fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "gnet: "+format+"\n", args...)
	os.Exit(1)
}
