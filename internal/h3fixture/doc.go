// Package h3fixture runs in-process loopback HTTP/3 servers for the tests
// of pummel's HTTP/3 client, in the spirit of packages fixture and
// h2fixture.
//
// Start runs a raw server on quic-go's streams: it writes the HTTP/3
// frames by hand (varint type, varint length, payload), encodes and
// decodes header blocks with qpack's static table only, and does exactly
// what its Behaviour says: status, body size, delay, a stream limit,
// resets, rejections, stalls, GOAWAY, connection closes, a stateless
// reset, a handshake that fails or never answers, and responses that
// break the protocol. Its counters are exact. Every server is closed,
// with all its goroutines, by the test's Cleanup. It is for tests only.
package h3fixture
