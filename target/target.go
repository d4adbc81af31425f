// Package target is pummel's built-in target: a small fasthttp server with
// endpoints for calibration and tests. `pummel serve` runs it, `pummel demo`
// runs it in-process, and the engine's tests and benchmarks load it.
//
// Endpoints:
//
//	/              an empty 200
//	/delay/{ms}    an empty 200 after ms milliseconds
//	/status/{code} an empty response with that status (100–599)
//	/bytes/{n}     a 200 with n bytes of body (at most MaxBytes)
//	/requests      a 200 whose body is the number of requests answered so
//	               far, in decimal, those to /requests left out: a load's
//	               count checked against the server's own
//
// It only answers: it never measures, and it misbehaves only when asked
// to by a path. The engine's tests that need a server that misbehaves on
// its own use internal/fixture.
package target

import (
	"bytes"
	"net"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

// MaxBytes bounds /bytes/{n}: 64 MiB.
const MaxBytes = 64 << 20

// MaxDelay bounds /delay/{ms}: one minute.
const MaxDelay = time.Minute

// Server is the built-in target. Construct it with New, then Serve a
// listener; Shutdown stops it.
type Server struct {
	srv      fasthttp.Server
	fill     []byte        // read-only filler for /bytes/{n}
	answered atomic.Uint64 // requests handled, those to /requests left out
}

// New returns a Server ready to Serve.
func New() *Server {
	s := &Server{fill: bytes.Repeat([]byte{'x'}, 64<<10)}
	s.srv = fasthttp.Server{
		Handler:              s.handle,
		Name:                 "pummel",
		NoDefaultDate:        true,
		NoDefaultContentType: true,
	}
	return s
}

// Serve answers requests on ln until Shutdown is called.
func (s *Server) Serve(ln net.Listener) error { return s.srv.Serve(ln) }

// Shutdown stops accepting, waits for open requests to end and closes
// idle connections.
func (s *Server) Shutdown() error { return s.srv.Shutdown() }

// Requests returns the number of requests answered so far, those to
// /requests left out, as /requests answers it.
func (s *Server) Requests() uint64 { return s.answered.Load() }

func (s *Server) handle(ctx *fasthttp.RequestCtx) {
	path := ctx.Path()
	if string(path) == "/requests" {
		ctx.SetBody(strconv.AppendUint(nil, s.answered.Load(), 10))
		return
	}
	s.answered.Add(1)
	switch {
	case len(path) == 1 && path[0] == '/':
	case bytes.HasPrefix(path, []byte("/delay/")):
		ms, ok := number(path[len("/delay/"):], int(MaxDelay/time.Millisecond))
		if !ok {
			ctx.Error("delay: want /delay/{ms} with 0 <= ms <= 60000", fasthttp.StatusBadRequest)
			return
		}
		time.Sleep(time.Duration(ms) * time.Millisecond)
	case bytes.HasPrefix(path, []byte("/status/")):
		code, ok := number(path[len("/status/"):], 599)
		if !ok || code < 100 {
			ctx.Error("status: want /status/{code} with 100 <= code <= 599", fasthttp.StatusBadRequest)
			return
		}
		ctx.SetStatusCode(code)
	case bytes.HasPrefix(path, []byte("/bytes/")):
		n, ok := number(path[len("/bytes/"):], MaxBytes)
		if !ok {
			ctx.Error("bytes: want /bytes/{n} with 0 <= n <= 67108864", fasthttp.StatusBadRequest)
			return
		}
		s.writeBody(ctx, n)
	default:
		ctx.Error("not found: try /, /delay/{ms}, /status/{code} or /bytes/{n}", fasthttp.StatusNotFound)
	}
}

// writeBody appends n bytes of filler to the response body.
func (s *Server) writeBody(ctx *fasthttp.RequestCtx, n int) {
	for n > 0 {
		k := min(n, len(s.fill))
		ctx.Write(s.fill[:k]) //nolint:errcheck // appends to memory
		n -= k
	}
}

// number parses a decimal path segment in [0, limit].
func number(b []byte, limit int) (int, bool) {
	n, err := strconv.Atoi(string(b))
	return n, err == nil && n >= 0 && n <= limit
}
