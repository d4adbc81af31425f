// Package http1 is the HTTP/1.1 side of the engine's protocols: it frames
// responses from a connection's byte stream (Parser, with fasthttp for
// whole headers and LastHeader to recognise a header seen before), and
// splits the requests a script returns (CountRequests, IsHead). Like
// package h2 for HTTP/2, it never touches a socket or a clock: the
// engine's transports feed it bytes, and the engine counts what it finds.
package http1
