package engine

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

func TestPipelining(t *testing.T) {
	tests := []struct {
		name       string
		behaviour  fixture.Behaviour
		n          int64
		responses  int64 // want
		reconnects bool
	}{
		{"every response counted", fixture.Behaviour{}, 1000, 1000, false},
		{"a count that is no multiple of the depth", fixture.Behaviour{}, 997, 997, false},
		{"chunked bodies", fixture.Behaviour{BodySize: 3000, Chunked: true}, 320, 320, false},
	}
	for _, engine := range transports() {
		for _, tt := range tests {
			t.Run(engine+"/"+tt.name, func(t *testing.T) {
				srv := fixture.New(t, tt.behaviour)
				res := runLoad(t, srv, Config{Engine: engine, Requests: tt.n, Connections: 4, Threads: 2, Pipeline: 16})
				if res.Requests != tt.responses || res.Errors != (stats.Errors{}) {
					t.Errorf("responses %d, errors %+v %v; want %d and none", res.Requests, res.Errors, res.ErrorCauses, tt.responses)
				}
				if srv.Requests() != tt.n {
					t.Errorf("the server answered %d requests, want %d", srv.Requests(), tt.n)
				}
				if (res.Reconnects > 0) != tt.reconnects {
					t.Errorf("reconnects %d", res.Reconnects)
				}
			})
		}
	}
}

// A server that closes after the 5th response of each connection, with or
// without saying so, leaves the 11 requests pipelined behind it in each
// batch of 16 unanswered: they are read errors, never sent again. 200
// requests over batches of 16 are 12 whole batches and one of 8: 13 × 5
// responses, and the rest errors.
func TestPipelinedRequestsBehindACloseAreErrors(t *testing.T) {
	for _, engine := range transports() {
		for _, b := range []fixture.Behaviour{{CloseAfter: 5}, {CloseAfterSilently: 5}} {
			t.Run(engine, func(t *testing.T) {
				srv := fixture.New(t, b)
				res := runLoad(t, srv, Config{Engine: engine, Requests: 200, Connections: 4, Threads: 2, Pipeline: 16})
				if res.Requests != 65 || res.Errors.Read != 135 || ended(res) != 200 || srv.Requests() != 65 {
					t.Errorf("responses %d, read errors %d %v, server %d; want 65, 135, 65",
						res.Requests, res.Errors.Read, res.ErrorCauses, srv.Requests())
				}
			})
		}
	}
}

func TestPipelinedFailureEndsTheRequestsQueuedBehindIt(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{ResetAfterResponses: 2})
	res := runLoad(t, srv, Config{Requests: 64, Connections: 1, Pipeline: 16})
	// Each batch of 16: two answered, the third reset mid-response, and
	// the 13 behind it never answered: 14 read errors per batch.
	if res.Requests != 8 || res.Errors.Read != 56 || ended(res) != 64 {
		t.Errorf("responses %d, read errors %d (%v), want 8 and 56", res.Requests, res.Errors.Read, res.ErrorCauses)
	}
}

func TestPipelinedLatencyRunsFromTheBatchSend(t *testing.T) {
	const delay = 20 * time.Millisecond
	srv := fixture.New(t, fixture.Behaviour{Delay: delay})
	res := runLoad(t, srv, Config{Requests: 4, Connections: 1, Pipeline: 4})
	// The server answers the batch one response after another, so the
	// last response waited for all four delays.
	if res.Latency.Min < float64(delay.Microseconds()) || res.Latency.Max < float64(4*delay.Microseconds()) {
		t.Errorf("latency min %.0fus max %.0fus, want at least %v and %v", res.Latency.Min, res.Latency.Max, delay, 4*delay)
	}
}

func TestClaimHandsOutExactlyTheRequests(t *testing.T) {
	for _, depth := range []int{1, 7, 16} {
		r := &Load{Config: &Config{WarmupRequests: 100}, limit: 1100}
		var got, warm atomic.Int64
		var wg sync.WaitGroup
		for range 50 {
			wg.Go(func() {
				for {
					first, k := r.claim(depth)
					if k == 0 {
						return
					}
					if k > depth || first < 100 && first+int64(k) > 100 {
						t.Errorf("claim(%d) = %d, %d: too many, or straddles the warm-up", depth, first, k)
					}
					if first < 100 {
						warm.Add(int64(k))
					}
					got.Add(int64(k))
				}
			})
		}
		wg.Wait()
		if got.Load() != 1100 || warm.Load() != 100 {
			t.Errorf("depth %d: handed out %d (warm-up %d), want 1100 (100)", depth, got.Load(), warm.Load())
		}
	}
}

// Responses that shrink, each smaller than any before it, never leave a
// pipelined batch waiting for bytes that will not come (the event loop's
// low-water mark expects at least the smallest response seen).
func TestPipelinedResponsesSmallerThanBefore(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		// A pause before each response makes it arrive on its own, so a
		// batch's first response always sets the mark for the others,
		// which are smaller: only the grace timer reads them.
		time.Sleep(2 * time.Millisecond)
		w.Write(bytes.Repeat([]byte("x"), max(1, 200-int(n.Add(1))))) //nolint:errcheck // test server
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			n.Store(0)
			res, err := Run(t.Context(), Config{URL: u, Engine: engine, Connections: 1, Threads: 1, Requests: 64, Pipeline: 8, Timeout: time.Second})
			if err != nil || res.Requests != 64 || res.Errors != (stats.Errors{}) {
				t.Errorf("err %v, responses %d, errors %+v %v; want 64 clean", err, res.Requests, res.Errors, res.ErrorCauses)
			}
		})
	}
}

// shrinkingServer answers each connection's first batches with 4096-byte
// bodies, then every batch of depth with bodies that shrink: 4096, 2048,
// and so on, halving. It writes what a batch asks for in one write.
func shrinkingServer(t *testing.T, depth, uniform int) *url.URL {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	serve := func(c net.Conn) {
		defer c.Close()
		br := bufio.NewReader(c)
		var out []byte
		for i := 0; ; i++ {
			if _, err := http.ReadRequest(br); err != nil {
				return
			}
			size := 4096
			if i >= uniform*depth {
				size >>= i % depth
			}
			out = fmt.Appendf(out, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", size, bytes.Repeat([]byte("x"), size))
			if br.Buffered() == 0 {
				if _, err := c.Write(out); err != nil {
					return
				}
				out = out[:0]
			}
		}
	}
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { serve(c) })
		}
	})
	return &url.URL{Scheme: "http", Host: ln.Addr().String(), Path: "/"}
}

// Responses that shrink within a batch, after batches of one size taught
// the event loop a low-water estimate, complete their batch: no timeouts,
// and batches that do not wait for graces (see TestGracedBatchesTeachNothing).
func TestPipelinedBatchesThatShrinkComplete(t *testing.T) {
	const depth, conns, timeout = 8, 32, time.Second
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			u := shrinkingServer(t, depth, 4)
			res, err := Run(t.Context(), Config{URL: u, Engine: engine, Connections: conns, Threads: 1, Pipeline: depth,
				Requests: conns * depth * 10, Timeout: timeout})
			if err != nil || res.Requests != conns*depth*10 || res.Errors != (stats.Errors{}) {
				t.Fatalf("err %v, responses %d, errors %+v %v; want all, no errors", err, res.Requests, res.Errors, res.ErrorCauses)
			}
			if p50 := time.Duration(res.Latency.P50) * time.Microsecond; p50 > timeout/10 {
				t.Errorf("p50 %v, over a tenth of the timeout %v", p50, timeout)
			}
		})
	}
}
