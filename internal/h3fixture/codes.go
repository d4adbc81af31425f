package h3fixture

// HTTP/3 error codes (RFC 9114 §8.1) that the fixture sends or looks for.
// They are untyped so that they convert to quic.StreamErrorCode and
// quic.ApplicationErrorCode alike.
const (
	// CodeNoError (H3_NO_ERROR) closes a connection after a GOAWAY, and
	// every connection still open when the server is closed.
	CodeNoError = 0x100
	// CodeInternalError (H3_INTERNAL_ERROR) closes a connection at
	// CloseAfter, and is ResetEvery's default code.
	CodeInternalError = 0x102
	// CodeStreamCreationError (H3_STREAM_CREATION_ERROR) answers a
	// unidirectional stream the server does not accept.
	CodeStreamCreationError = 0x103
	// CodeClosedCriticalStream (H3_CLOSED_CRITICAL_STREAM) closes a
	// connection whose client closed its control stream.
	CodeClosedCriticalStream = 0x104
	// CodeFrameUnexpected (H3_FRAME_UNEXPECTED) closes a connection whose
	// client sent a frame not allowed where it was.
	CodeFrameUnexpected = 0x105
	// CodeFrameError (H3_FRAME_ERROR) closes a connection whose client
	// sent a frame that cannot be parsed.
	CodeFrameError = 0x106
	// CodeMissingSettings (H3_MISSING_SETTINGS) closes a connection whose
	// client control stream does not start with SETTINGS.
	CodeMissingSettings = 0x10a
	// CodeRequestRejected (H3_REQUEST_REJECTED) resets a stream the server
	// did not process: RejectEvery, or a stream at or above a GOAWAY.
	CodeRequestRejected = 0x10b
	// CodeRequestCancelled (H3_REQUEST_CANCELLED) is the code a client
	// cancels a request with; the server counts it in Cancelled.
	CodeRequestCancelled = 0x10c
	// CodeRequestIncomplete (H3_REQUEST_INCOMPLETE) resets a request
	// stream that the client ended before its HEADERS frame.
	CodeRequestIncomplete = 0x10d
	// CodeMessageError (H3_MESSAGE_ERROR) resets a request stream whose
	// header section lacks :method or :path.
	CodeMessageError = 0x10e
	// CodeQPACKDecompressionFailed (QPACK_DECOMPRESSION_FAILED) closes a
	// connection whose client sent a header block that does not decode.
	CodeQPACKDecompressionFailed = 0x200
)

// Frame types (RFC 9114 §7.2).
const (
	frameData     = 0x00
	frameHeaders  = 0x01
	frameSettings = 0x04
	frameGoAway   = 0x07
)

// Unidirectional stream types (RFC 9114 §6.2, RFC 9204 §4.2).
const (
	streamControl      = 0x00
	streamPush         = 0x01
	streamQPACKEncoder = 0x02
	streamQPACKDecoder = 0x03
)

// reserved reports whether a frame type is one that HTTP/2 used and
// HTTP/3 forbids (RFC 9114 §7.2.8): receiving it is H3_FRAME_UNEXPECTED.
func reserved(typ uint64) bool { return typ == 0x02 || typ == 0x06 || typ == 0x08 || typ == 0x09 }

// known reports whether a frame type is defined by RFC 9114 (and may not
// simply be skipped).
func known(typ uint64) bool {
	switch typ {
	case 0x00, 0x01, 0x03, 0x04, 0x05, 0x07, 0x0d:
		return true
	}
	return reserved(typ)
}
