package engine

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"os"
	"syscall"

	"github.com/pummel-dev/pummel/stats"
	"github.com/valyala/fasthttp"
)

// failure is how one request ended when it did not end in a response. The
// zero value means no failure.
type failure struct {
	class stats.ErrorClass
	cause string
	// idle is true when the server had closed or reset the connection
	// before this request reached it: on a connection that already served
	// responses, that is a reconnect, not an error.
	idle bool
	set  bool
}

func (f failure) failed() bool { return f.set }

// errMalformed marks a response pummel could not parse.
var errMalformed = errors.New("malformed response")

func fail(class stats.ErrorClass, cause string) failure {
	return failure{class: class, cause: cause, set: true}
}

// connectFailure classifies a failed dial or TLS handshake.
func connectFailure(err error) failure {
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var recordErr tls.RecordHeaderError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fail(stats.Connect, "refused")
	case errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENFILE):
		return fail(stats.Connect, "too many open files")
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return fail(stats.Connect, "no free local port")
	case errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH):
		return fail(stats.Connect, "unreachable")
	case errors.Is(err, syscall.ECONNRESET):
		return fail(stats.Connect, "reset")
	case errors.As(err, &dnsErr):
		return fail(stats.Connect, "name not resolved")
	case errors.As(err, &certErr):
		return fail(stats.Connect, "TLS certificate rejected")
	case errors.As(err, &recordErr):
		return fail(stats.Connect, "TLS handshake failed")
	case isTimeout(err):
		return fail(stats.Connect, "timed out")
	case errors.Is(err, io.EOF):
		return fail(stats.Connect, "closed during handshake")
	}
	return fail(stats.Connect, "other")
}

// writeFailure classifies a failed request write.
func writeFailure(err error) failure {
	switch {
	case isTimeout(err):
		return fail(stats.Timeout, "while writing")
	case errors.Is(err, syscall.EPIPE):
		return failure{class: stats.Write, cause: "broken pipe", idle: true, set: true}
	case errors.Is(err, syscall.ECONNRESET):
		return failure{class: stats.Write, cause: "reset", idle: true, set: true}
	}
	return fail(stats.Write, "other")
}

// readFailure classifies a failed response read. started tells whether any
// byte of the response had arrived.
func readFailure(err error, started bool) failure {
	var small *fasthttp.ErrSmallBuffer
	switch {
	case isTimeout(err):
		if started {
			return fail(stats.Timeout, "partial response")
		}
		return fail(stats.Timeout, "no response")
	case errors.Is(err, syscall.ECONNRESET):
		return failure{class: stats.Read, cause: "reset", idle: !started, set: true}
	case errors.Is(err, io.EOF) && !started:
		return failure{class: stats.Read, cause: "EOF before response", idle: true, set: true}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fail(stats.Read, "EOF mid-response")
	case errors.As(err, &small):
		return fail(stats.Read, "response header over 64 KiB")
	}
	return fail(stats.Read, "malformed response")
}

func isTimeout(err error) bool {
	if errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, fasthttp.ErrTimeout) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
