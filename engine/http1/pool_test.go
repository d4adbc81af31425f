package http1

import "testing"

// A connection that borrows header parsers from the pool (the goroutine
// transport's) holds none while it waits: Feed gives the parser back
// before it returns, so 50 connections each waiting for the rest of a
// body after their header need one parser between them, not 50.
func TestWaitingConnectionsHoldNoParser(t *testing.T) {
	var made int
	makeOne := parserPool.New
	parserPool.New = func() any { made++; return makeOne() }
	t.Cleanup(func() { parserPool.New = makeOne })
	// Empty the pool first, or parsers left by earlier tests would be
	// taken without being made.
	for made == 0 {
		parserPool.Get()
	}
	made = 0

	var pool HeaderParsers // lends from the pool, as goroutine connections do
	const header = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n"
	waiting := make([]Parser, 50)
	for i := range waiting {
		n, ev, err := waiting[i].Feed([]byte(header), &pool)
		if n != len(header) || ev != NeedMore || err != nil {
			t.Fatalf("Feed(header) = %d, %v, %v; want the header consumed and the body awaited", n, ev, err)
		}
	}
	// Under -race sync.Pool drops a quarter of what is put back, so a few
	// more than one are made; a parser kept per waiting connection is 50.
	if made > len(waiting)/2 {
		t.Errorf("%d parsers made for %d connections waiting for a body, want about one", made, len(waiting))
	}
}
