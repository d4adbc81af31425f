package engine

import (
	"net/url"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/engine/http1"
	"github.com/pummel-dev/pummel/internal/fixture"
)

// A connection of the goroutine transport waiting for its response holds
// no header parser, so a slow server does not cost a parser per
// connection: 50 connections to a server that never answers make none.
func TestWaitingConnectionsHoldNoParser(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{Stall: true})
	// Empty the pool first, or parsers left by earlier tests would be
	// taken without being made.
	http1.DrainPool()
	before := http1.ParsersMade()
	res := runLoad(t, srv, Config{Engine: EngineGoroutine, Duration: 300 * time.Millisecond, Connections: 50, Threads: 2})
	if made := http1.ParsersMade() - before; made != 0 || res.Requests != 0 {
		t.Errorf("%d parsers made for %d responses, want none", made, res.Requests)
	}
}

// A script's response() gets every response's own headers, so with a
// script nothing is remembered and every header is parsed.
func TestLastHeaderNotWithAScript(t *testing.T) {
	const a = "HTTP/1.1 200 OK\r\nServer: x\r\nContent-Length: 0\r\n\r\n"
	u, _ := url.Parse("http://127.0.0.1:1/")
	cfg := Config{URL: u}
	threads, err := withScript(t, &cfg, example("auth.lua")).Threads(t.Context(), 1, u.Host) // it has a response()
	if err != nil {
		t.Fatal(err)
	}
	c := &conn{}
	c.init(&load{cfg: &cfg}, &worker{script: &scripted{thread: threads[0]}}, &outbox{}, &http1.LastHeader{})
	b, hp := []byte(a+a+a), http1.OwnParsers()
	for i := range 3 {
		n, ev, err := c.p.Feed(b, &hp)
		if err != nil || ev != http1.Responded || c.p.Status != 200 {
			t.Fatalf("response %d: status %d, error %v", i, c.p.Status, err)
		}
		if c.p.Last.Hits() != 0 || len(c.sc.headers) == 0 {
			t.Fatalf("response %d: %d recognised, %d headers kept for the script", i, c.p.Last.Hits(), len(c.sc.headers))
		}
		b = b[n:]
	}
}
