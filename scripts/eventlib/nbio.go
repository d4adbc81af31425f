package main

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lesismal/nbio"
	"github.com/lesismal/nbio/logging"
)

// nbioClient holds what nbio's callbacks share; they run on the poller
// goroutine that owns the connection.
type nbioClient struct {
	request  []byte
	opened   sync.WaitGroup // a dial's callback has run
	failed   atomic.Int64   // dials that did not open
	stopping atomic.Bool
	dropped  atomic.Int64 // connections closed before the run stopped
}

// connected sends the connection's first request once nbio's
// non-blocking connect completes.
func (n *nbioClient) connected(s *session) func(*nbio.Conn, error) {
	return func(c *nbio.Conn, err error) {
		defer n.opened.Done()
		if err == nil {
			c.SetSession(s)
			err = c.SetNoDelay(true) // as Go's dialer, gnet and pummel do
		}
		if err == nil {
			s.sent = time.Now()
			_, err = c.Write(n.request)
		}
		if err != nil {
			n.failed.Add(1)
			fmt.Fprintln(os.Stderr, "eventlib: nbio: dial:", err)
		}
	}
}

// data takes one read (the poller's buffer, no copy) and writes the next
// request for each response it completed.
func (n *nbioClient) data(c *nbio.Conn, data []byte) {
	s := c.Session().(*session)
	for range s.feed(data) {
		s.answered(time.Now())
		if _, err := c.Write(n.request); err != nil {
			return // nbio closes the connection; OnClose counts it
		}
	}
}

// closed counts a connection that closed while the load ran.
func (n *nbioClient) closed(_ *nbio.Conn, err error) {
	if !n.stopping.Load() {
		n.dropped.Add(1)
		fmt.Fprintln(os.Stderr, "eventlib: nbio: connection closed:", err)
	}
}

// runNbio runs the load with an nbio engine in client mode (no listen
// addresses): NPoller event loops, each connection dialed without
// blocking by Engine.DialAsync and served by OnData.
func runNbio(cfg config, sessions []*session, hold func()) error {
	logging.SetLevel(logging.LevelError) // its Info lines go to stdout
	n := &nbioClient{request: cfg.request}
	engine := nbio.NewEngine(nbio.Config{NPoller: cfg.loops})
	engine.OnData(n.data)
	engine.OnClose(n.closed)
	if err := engine.Start(); err != nil {
		return err
	}
	for _, s := range sessions {
		n.opened.Add(1)
		if err := engine.DialAsync("tcp", cfg.addr, n.connected(s)); err != nil {
			n.opened.Done()
			n.failed.Add(1)
			fmt.Fprintln(os.Stderr, "eventlib: nbio: dial:", err)
			break
		}
	}
	n.opened.Wait()
	if k := n.failed.Load(); k > 0 {
		n.stopping.Store(true)
		engine.Stop()
		return fmt.Errorf("%d of %d connections failed to open", k, cfg.conns)
	}
	hold()
	n.stopping.Store(true)
	engine.Stop()
	if k := n.dropped.Load(); k > 0 {
		fmt.Fprintf(os.Stderr, "eventlib: nbio: %d connections closed during the run\n", k)
	}
	return nil
}
