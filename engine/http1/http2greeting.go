package http1

// HTTP2Greeting reports whether b begins with the header of an HTTP/2
// SETTINGS frame on stream 0 (RFC 9113 §6.5): 9 bytes, a length that is a
// multiple of 6, type 0x4, no flag but ACK, stream 0. It is what a server
// that speaks HTTP/2 alone (h2c with prior knowledge: nginx's
// `listen … http2`, Go's h2c server) sends first on every connection,
// whatever the client wrote, before closing on an HTTP/1.1 request. No
// HTTP/1.x response starts so: its first byte is a letter. The engine
// asks only when a response failed, never on the request path.
func HTTP2Greeting(b []byte) bool {
	if len(b) < 9 {
		return false
	}
	length := int(b[0])<<16 | int(b[1])<<8 | int(b[2])
	const typeSettings, flagAck = 0x4, 0x1
	stream := (uint32(b[5])&0x7f)<<24 | uint32(b[6])<<16 | uint32(b[7])<<8 | uint32(b[8])
	return b[3] == typeSettings && b[4]&^flagAck == 0 && stream == 0 && length%6 == 0
}
