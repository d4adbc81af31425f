// Package loop is the event-loop transport (Linux; plain TCP and Unix
// sockets): one loop per worker, each on its own locked OS thread with
// its own epoll instance, non-blocking sockets registered once,
// edge-triggered, a deadline queue for the timeouts and timed sends, and
// no goroutine or Go netpoller on a request's path. It moves bytes and
// owns the sockets, deadlines and back-off; what the bytes mean and how
// each request ends is the engine's (engine.Conn for HTTP/1.1,
// engine.H2Streams for HTTP/2). docs/architecture.md follows one request
// through it.
package loop
