package goroutine_test

import (
	"context"
	"errors"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/goroutine"
	"github.com/pummel-dev/pummel/engine/transports"
	"github.com/pummel-dev/pummel/internal/fixture"
)

func TestUnansweredDialsEndTheRunAfterOneTimeout(t *testing.T) {
	// A target that never answers a SYN: each dial lasts its timeout. After
	// the first wave of dials fails, the rest must not be tried one wave
	// after another (10,000 connections would take 40 timeouts).
	var dials atomic.Int64
	blackhole := func(ctx context.Context, _, _ string) (net.Conn, error) {
		dials.Add(1)
		<-ctx.Done()
		return nil, ctx.Err()
	}
	u := &url.URL{Scheme: "http", Host: "192.0.2.1:80", Path: "/"}
	cfg := engine.Config{URL: u, Connections: 4 * goroutine.Dialers, Threads: 1, Duration: time.Second, Timeout: 50 * time.Millisecond, Dial: blackhole}
	_, err := transports.Run(t.Context(), cfg)
	if !errors.Is(err, engine.ErrUnreachable) {
		t.Errorf("Run = %v, want engine.ErrUnreachable", err)
	}
	if n := dials.Load(); n > goroutine.Dialers {
		t.Errorf("%d dials for %d connections to a silent target, want at most %d (one wave)", n, cfg.Connections, goroutine.Dialers)
	}
}

func TestDialsThatHangAfterSomeOpenedCostOneTimeoutBeforeTheClock(t *testing.T) {
	// A target that accepts a few connections and then drops SYNs (a
	// full accept queue): the goroutine.Dialers must not work through the rest in
	// waves of one timeout each before the clock starts; what they leave
	// is dialed, and counted, during the run.
	u := &url.URL{Scheme: "http", Host: fixture.Builtin(t), Path: "/"}
	var dials atomic.Int64
	var mu sync.Mutex
	var calls []time.Time
	dial := func(ctx context.Context, network, address string) (net.Conn, error) {
		mu.Lock()
		calls = append(calls, time.Now())
		mu.Unlock()
		if dials.Add(1) <= 4 {
			return (&net.Dialer{}).DialContext(ctx, network, address)
		}
		<-ctx.Done()
		return nil, ctx.Err()
	}
	cfg := engine.Config{URL: u, Connections: 8 * goroutine.Dialers, Threads: 1, Duration: 100 * time.Millisecond, Timeout: 100 * time.Millisecond, Dial: dial}
	res, err := transports.Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	start, err := time.Parse(time.RFC3339Nano, res.Start)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	before := 0
	for _, c := range calls {
		if c.Before(start) {
			before++
		}
	}
	// One wave, a second one during the timeout after the first failure,
	// and the few that opened: well under the 8 waves it would take.
	if before > 3*goroutine.Dialers {
		t.Errorf("%d dials before the clock started for %d connections, want at most %d", before, cfg.Connections, 3*goroutine.Dialers)
	}
}
