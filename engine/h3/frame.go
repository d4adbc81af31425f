package h3

import (
	"fmt"

	"github.com/quic-go/quic-go/quicvarint"
)

// FrameType is an HTTP/3 frame's type (RFC 9114 §7.2).
type FrameType uint64

// The frame types the client reads or writes.
const (
	FrameData     FrameType = 0x0
	FrameHeaders  FrameType = 0x1
	FrameSettings FrameType = 0x4
	FrameGoAway   FrameType = 0x7
)

// reserved tells the frame types that are HTTP/2's and must never appear
// in HTTP/3 (RFC 9114 §7.2.8), and those a request stream may not carry
// (CANCEL_PUSH, SETTINGS, PUSH_PROMISE, GOAWAY, MAX_PUSH_ID): both are
// H3_FRAME_UNEXPECTED there.
func unexpectedOnRequest(t FrameType) bool {
	switch t {
	case 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xd:
		return true
	}
	return false
}

// appendFrame appends a frame of type t carrying payload.
func appendFrame(b []byte, t FrameType, payload []byte) []byte {
	b = quicvarint.Append(b, uint64(t))
	b = quicvarint.Append(b, uint64(len(payload)))
	return append(b, payload...)
}

// ErrCode is an HTTP/3 error code, as a stream reset or a connection
// close carries it (RFC 9114 §8.1).
type ErrCode uint64

// The error codes the client sends or names.
const (
	NoError              ErrCode = 0x100
	GeneralProtocolError ErrCode = 0x101
	InternalError        ErrCode = 0x102
	StreamCreationError  ErrCode = 0x103
	ClosedCriticalStream ErrCode = 0x104
	FrameUnexpected      ErrCode = 0x105
	FrameError           ErrCode = 0x106
	ExcessiveLoad        ErrCode = 0x107
	IDError              ErrCode = 0x108
	SettingsError        ErrCode = 0x109
	MissingSettings      ErrCode = 0x10a
	RequestRejected      ErrCode = 0x10b
	RequestCancelled     ErrCode = 0x10c
	RequestIncomplete    ErrCode = 0x10d
	MessageError         ErrCode = 0x10e
	ConnectError         ErrCode = 0x10f
	VersionFallback      ErrCode = 0x110
	QPACKDecompression   ErrCode = 0x200
)

var codeNames = map[ErrCode]string{
	NoError: "H3_NO_ERROR", GeneralProtocolError: "H3_GENERAL_PROTOCOL_ERROR",
	InternalError: "H3_INTERNAL_ERROR", StreamCreationError: "H3_STREAM_CREATION_ERROR",
	ClosedCriticalStream: "H3_CLOSED_CRITICAL_STREAM", FrameUnexpected: "H3_FRAME_UNEXPECTED",
	FrameError: "H3_FRAME_ERROR", ExcessiveLoad: "H3_EXCESSIVE_LOAD", IDError: "H3_ID_ERROR",
	SettingsError: "H3_SETTINGS_ERROR", MissingSettings: "H3_MISSING_SETTINGS",
	RequestRejected: "H3_REQUEST_REJECTED", RequestCancelled: "H3_REQUEST_CANCELLED",
	RequestIncomplete: "H3_REQUEST_INCOMPLETE", MessageError: "H3_MESSAGE_ERROR",
	ConnectError: "H3_CONNECT_ERROR", VersionFallback: "H3_VERSION_FALLBACK",
	QPACKDecompression: "QPACK_DECOMPRESSION_FAILED",
}

// String names c as RFC 9114 does, or in hex when it is not one of its.
func (c ErrCode) String() string {
	if s, ok := codeNames[c]; ok {
		return s
	}
	return fmt.Sprintf("error code %#x", uint64(c))
}

// ProtocolError is a response that broke HTTP/3: the stream ends with
// Code, and Cause says what was wrong.
type ProtocolError struct {
	Code  ErrCode
	Cause string
}

func (e *ProtocolError) Error() string { return e.Cause + " (" + e.Code.String() + ")" }

func protocolError(code ErrCode, format string, args ...any) *ProtocolError {
	return &ProtocolError{Code: code, Cause: fmt.Sprintf(format, args...)}
}
