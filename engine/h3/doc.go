// Package h3 is the HTTP/3 framing pummel's client needs (RFC 9114): a
// request encoded once as the bytes of its HEADERS and DATA frames, a
// response read frame by frame off a request stream with its faults named,
// and the control streams' SETTINGS and GOAWAY. Field sections are QPACK
// without a dynamic table (the client advertises a capacity of zero), so
// a request's bytes never depend on what was sent before. It does no I/O
// of its own: the transport (engine/quicgo) owns the QUIC connection.
package h3
