package h3fixture

import (
	"errors"
	"maps"
	"sync"
	"sync/atomic"

	"github.com/quic-go/quic-go"
)

// counts are a server's exact counters; Server's methods document each.
type counts struct {
	conns      atomic.Int64
	streams    atomic.Int64
	responses  atomic.Int64
	faults     atomic.Int64
	resets     atomic.Int64
	rejected   atomic.Int64
	withdrawn  atomic.Int64
	stalled    atomic.Int64
	cancelled  atomic.Int64
	abandoned  atomic.Int64
	violations atomic.Int64
	bodyBytes  atomic.Int64

	mu       sync.Mutex       // guards requests and paths
	requests int64            // request HEADERS read and counted
	paths    map[string]int64 // requests per :path
}

// addRequest counts a request for path and returns the requests counted.
func (c *counts) addRequest(path string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.paths == nil {
		c.paths = make(map[string]int64)
	}
	c.paths[path]++
	c.requests++
	return c.requests
}

// requestCount returns the requests counted.
func (c *counts) requestCount() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.requests
}

// pathCounts returns a copy of the requests per path.
func (c *counts) pathCounts() map[string]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.paths)
}

// cancelledBy counts err if it is the client cancelling a stream with
// H3_REQUEST_CANCELLED (STOP_SENDING or RESET_STREAM), and reports
// whether it is any cancellation by the client.
func (c *counts) cancelledBy(err error) bool {
	var se *quic.StreamError
	if !errors.As(err, &se) || !se.Remote {
		return false
	}
	if se.ErrorCode == CodeRequestCancelled {
		c.cancelled.Add(1)
	}
	return true
}
