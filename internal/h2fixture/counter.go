package h2fixture

import (
	"crypto/tls"
	"strings"
	"sync"
	"sync/atomic"
)

// counter counts requests in total and per path, and request body bytes.
type counter struct {
	n    atomic.Int64
	body atomic.Int64

	mu    sync.Mutex       // guards paths
	paths map[string]int64 // requests per path
}

// add counts one request for path.
func (c *counter) add(path string) {
	c.n.Add(1)
	c.mu.Lock()
	if c.paths == nil {
		c.paths = make(map[string]int64)
	}
	c.paths[path]++
	c.mu.Unlock()
}

// total returns the requests counted.
func (c *counter) total() int64 { return c.n.Load() }

// path returns the requests counted for path.
func (c *counter) path(p string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.paths[p]
}

// body returns n 'x' bytes.
func body(n int) []byte { return []byte(strings.Repeat("x", n)) }

// cloneTLS returns a copy of c, or nil.
func cloneTLS(c *tls.Config) *tls.Config {
	if c == nil {
		return nil
	}
	return c.Clone()
}

// scheme returns "https://" or "http://".
func scheme(tlsOn bool) string {
	if tlsOn {
		return "https://"
	}
	return "http://"
}
