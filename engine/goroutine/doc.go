// Package goroutine is the goroutine transport: a goroutine per
// connection, blocking where the event loop waits, through a net.Conn. It
// carries TLS, an injected Config.Dial, and every system without the
// event loop. It moves bytes and owns the sockets, deadlines and
// back-off; what the bytes mean and how each request ends is the
// engine's (engine.Conn for HTTP/1.1, engine.H2Streams for HTTP/2), the
// same code the event loop calls.
package goroutine
