package engine

import (
	"net/url"
	"testing"

	"github.com/pummel-dev/pummel/engine/http1"
)

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
	c := &Conn{}
	c.Init(&Load{Config: &cfg}, &Worker{Script: &scripted{thread: threads[0]}}, &Outbox{}, &http1.LastHeader{})
	b, hp := []byte(a+a+a), http1.OwnParsers()
	for i := range 3 {
		c.scriptBufs.headers = nil // a recognised header would leave them so
		n, ev, err := c.Parser.Feed(b, &hp)
		if err != nil || ev != http1.Responded || c.Parser.Status != 200 {
			t.Fatalf("response %d: status %d, error %v", i, c.Parser.Status, err)
		}
		if len(c.scriptBufs.headers) == 0 {
			t.Fatalf("response %d: recognised, no headers kept for the script", i)
		}
		b = b[n:]
	}
}
