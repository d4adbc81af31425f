// Package h2fixture runs in-process loopback HTTP/2 servers for the tests
// of pummel's HTTP/2 client, in the spirit of package fixture.
//
// StartHonest runs golang.org/x/net/http2's own server (h2c with prior
// knowledge, or h2 over TLS with a self-signed certificate) with a few
// handlers, for the cases where the server is right. Start runs a raw
// server written on x/net/http2's Framer and hpack whose Behaviour says
// exactly how it misbehaves (resets, refusals, GOAWAY, tiny windows,
// split frames, protocol violations, closes), with exact counters. Both
// are closed by the test's Cleanup. It is for tests only.
package h2fixture
