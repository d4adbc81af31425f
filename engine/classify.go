package engine

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"os"
	"syscall"

	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/pummel-dev/pummel/engine/http1"
	"github.com/pummel-dev/pummel/stats/record"
	"github.com/valyala/fasthttp"
)

// Failure is how one request ended when it did not end in a response. The
// zero value means no failure.
type Failure struct {
	class record.ErrorClass
	cause string
	// behind, if set, is the cause for the requests queued behind the
	// first one in a pipelined batch, which got no byte of a response.
	behind string
}

// Causes of read errors that the counting rule (docs/architecture.md) names.
const (
	// causeClosedBeforeResponse: the server closed the connection after
	// the request was written and before any byte of its response.
	causeClosedBeforeResponse = "closed before responding"
	// causeResetBeforeResponse: the same with a reset.
	causeResetBeforeResponse = "reset before responding"
	// causeClosedMidResponse and causeResetMidResponse: a response began
	// and never ended.
	causeClosedMidResponse = "closed mid-response"
	causeResetMidResponse  = "reset mid-response"
	// causeUnsolicited: bytes arrived when no request was outstanding.
	causeUnsolicited = "unsolicited response"
	// causeWriteTimeout: a timeout passed while the request was still
	// being written (the server does not read it).
	causeWriteTimeout = "while writing the request"
	// causeSpeaksHTTP2: the server's first bytes on the connection were
	// an HTTP/2 SETTINGS frame (http1.HTTP2Greeting): it speaks HTTP/2
	// alone, and closes on an HTTP/1.1 request.
	causeSpeaksHTTP2 = "the server speaks HTTP/2: add --http2"
)

// Fail is a failure of class with cause.
func Fail(class record.ErrorClass, cause string) Failure {
	return Failure{class: class, cause: cause}
}

// ConnectFailure classifies a failed dial or TLS handshake.
func ConnectFailure(err error) Failure {
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var recordErr tls.RecordHeaderError
	var protoErr *h2.ConnError
	var noStreams *NoStreamsError
	var noH2 *NoHTTP2Error
	var noH3 *NoHTTP3Error
	var handshake *HandshakeError
	switch {
	case errors.Is(err, h2.ErrNoSettings), errors.As(err, &noStreams), errors.As(err, &noH2), errors.As(err, &noH3):
		return Fail(record.Connect, err.Error())
	case errors.As(err, &handshake) && !errors.As(err, new(*tls.CertificateVerificationError)) && !IsTimeout(err):
		return Fail(record.Connect, handshake.Cause)
	case errors.As(err, &protoErr):
		return Fail(record.Connect, "HTTP/2 handshake: protocol error: "+err.Error())
	case errors.Is(err, syscall.ECONNREFUSED):
		return Fail(record.Connect, "refused")
	case errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENFILE):
		return Fail(record.Connect, "too many open files")
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return Fail(record.Connect, "no free local port")
	case errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH):
		return Fail(record.Connect, "unreachable")
	case errors.Is(err, syscall.ECONNRESET):
		return Fail(record.Connect, "reset")
	case errors.As(err, &dnsErr):
		return Fail(record.Connect, "name not resolved")
	case errors.As(err, &certErr):
		return Fail(record.Connect, "TLS certificate rejected")
	case errors.As(err, &recordErr):
		return Fail(record.Connect, "TLS handshake failed")
	case IsTimeout(err):
		return Fail(record.Connect, "timed out")
	case errors.Is(err, io.EOF):
		return Fail(record.Connect, "closed during handshake")
	}
	return Fail(record.Connect, "other")
}

// WriteFailure classifies a failed request write.
func WriteFailure(err error) Failure {
	switch {
	case IsTimeout(err):
		return Fail(record.Timeout, causeWriteTimeout)
	case errors.Is(err, syscall.EPIPE):
		return Fail(record.Write, "broken pipe")
	case errors.Is(err, syscall.ECONNRESET):
		return Fail(record.Write, "reset")
	}
	return Fail(record.Write, "other")
}

// closedBeforeWrite reports whether a failed write shows a close the
// server made before the request reached it: a broken pipe or a reset.
func closedBeforeWrite(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET)
}

// closeFailure is the read error of requests in flight when the server
// closed the connection (reset: with an RST) before they were answered;
// started tells whether the first had part of its response.
func closeFailure(reset, started bool) Failure {
	f := Fail(record.Read, causeClosedBeforeResponse)
	switch {
	case reset && started:
		f.cause = causeResetMidResponse
	case reset:
		f.cause = causeResetBeforeResponse
	case started:
		f.cause = causeClosedMidResponse
	}
	if reset {
		f.behind = causeResetBeforeResponse
	} else {
		f.behind = causeClosedBeforeResponse
	}
	return f
}

// timeoutFailure is a request whose timeout passed while its response
// was awaited: a partial response when a byte of it had arrived.
func timeoutFailure(started bool) Failure {
	if started {
		return Failure{class: record.Timeout, cause: "partial response", behind: "no response"}
	}
	return Fail(record.Timeout, "no response")
}

// readFailure classifies a failed response read: a read error, or a
// response that cannot be parsed. started tells whether any byte of the
// response had arrived.
func readFailure(err error, started bool) Failure {
	switch {
	case IsTimeout(err):
		return timeoutFailure(started)
	case errors.Is(err, syscall.ECONNRESET):
		return closeFailure(true, started)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return closeFailure(false, started)
	case errors.Is(err, http1.ErrHeaderLarge):
		return Fail(record.Read, http1.ErrHeaderLarge.Error())
	}
	return Fail(record.Read, http1.ErrMalformed.Error())
}

// IsTimeout reports whether err is a deadline that passed (a net.Error
// timeout, os.ErrDeadlineExceeded).
func IsTimeout(err error) bool {
	if errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, fasthttp.ErrTimeout) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
