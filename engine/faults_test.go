package engine

import (
	"net"
	"net/url"
	"syscall"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/internal/parse"
	"github.com/pummel-dev/pummel/stats"
)

// Valid HTTP that is unusual is read, not timed out or refused: header
// lines that end in a bare LF (RFC 9112 §2.2), chunk extensions and
// trailers far longer than any read buffer.
func TestUnusualFramingsAreRead(t *testing.T) {
	long := make([]byte, 2000)
	for i := range long {
		long[i] = 'e'
	}
	tests := []struct {
		name string
		raw  string
	}{
		{"bare LF line ends", "HTTP/1.1 200 OK\nContent-Length: 2\n\nok"},
		{"a 2,000-byte trailer", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX-T: " + string(long) + "\r\n\r\n"},
		{"a 2,000-byte chunk extension", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;" + string(long) + "\r\nok\r\n0\r\n\r\n"},
		{"chunked after another coding", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"},
	}
	for _, engine := range transports() {
		for _, tt := range tests {
			t.Run(engine+"/"+tt.name, func(t *testing.T) {
				srv := fixture.New(t, fixture.Behaviour{Misbehave: fixture.Misbehaviour{Raw: []byte(tt.raw)}})
				res := runLoad(t, srv, Config{Engine: engine, Requests: 50, Connections: 2, Timeout: 2 * time.Second})
				if res.Requests != 50 || res.Errors != (stats.Errors{}) || srv.Requests() != 50 {
					t.Errorf("responses %d, errors %+v %v, server %d; want 50 clean", res.Requests, res.Errors, res.ErrorCauses, srv.Requests())
				}
			})
		}
	}
}

// Statuses the user accepted with --expect-status are neither status nor
// validation errors, even at 400 and above.
func TestAcceptedStatusesAreNotErrors(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{Status: []int{404, 200}})
			res := runLoad(t, srv, Config{Engine: engine, Requests: 40, Checks: Checks{Status: []parse.StatusRange{{Lo: 404, Hi: 404}}}})
			if res.Errors.Status != 0 || res.Errors.Validation != 20 || res.Status["404"] != 20 {
				t.Errorf("status errors %d, validation errors %d, statuses %v; want 0, 20 (the 200s), 20 × 404",
					res.Errors.Status, res.Errors.Validation, res.Status)
			}
		})
	}
}

// A server that resets every connection as it accepts it is redialed
// after a backoff, not in a hot loop.
func TestConnectionsClosedAtAcceptAreRedialedWithBackoff(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{RefuseAfterAccept: true})
			res := runLoad(t, srv, Config{Engine: engine, Duration: time.Second, Connections: 2})
			// Backing off from 10 ms, doubling, a connection dials about
			// 7 times a second; without a backoff, thousands of times.
			if n := srv.Connections(); n > 100 {
				t.Errorf("%d connections in a second from 2 (%d read errors): no backoff", n, res.Errors.Read)
			}
			if res.Errors.Read == 0 {
				t.Errorf("errors %+v: the closes were not counted", res.Errors)
			}
		})
	}
}

// jammed returns the address of a listener whose accept queue is full:
// one connection fits, and every later dial hangs, its SYN dropped.
func jammed(t *testing.T) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0) // no SOCK_CLOEXEC: darwin lacks it, and the test execs nothing
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: sa.(*syscall.SockaddrInet4).Port}
	return addr.String()
}

// Dials still under way when the run ends are abandoned, as requests in
// flight are: they are not connect errors.
func TestDialsUnderWayAtTheEndAreNotCounted(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			u := &url.URL{Scheme: "http", Host: jammed(t), Path: "/"}
			res, err := Run(t.Context(), Config{URL: u, Engine: engine, Connections: 4, Threads: 1,
				Duration: 300 * time.Millisecond, Timeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if res.Errors != (stats.Errors{}) {
				t.Errorf("errors %+v %v, want none: the run ended before any dial or request could", res.Errors, res.ErrorCauses)
			}
		})
	}
}

// A request larger than the socket's send buffer is written in parts, as
// the server reads it; pipelined, such a request is written depth times
// rather than copied depth times.
func TestLargeRequestsAreWrittenWhole(t *testing.T) {
	body := make([]byte, 3<<20)
	for _, engine := range transports() {
		for _, depth := range []int{1, 4} {
			t.Run(engine, func(t *testing.T) {
				srv := fixture.New(t, fixture.Behaviour{})
				cfg := Config{Engine: engine, Requests: 8, Connections: 2, Pipeline: depth, Method: "POST", Body: body}
				res := runLoad(t, srv, cfg)
				cfg.URL, _ = url.Parse(srv.URL())
				req, _ := buildRequest(&cfg)
				if res.Requests != 8 || res.Errors != (stats.Errors{}) || srv.Requests() != 8 || res.BytesWritten != 8*int64(len(req)) {
					t.Errorf("--pipeline %d: responses %d, errors %+v %v, server %d, wrote %d bytes; want 8 clean of %d bytes",
						depth, res.Requests, res.Errors, res.ErrorCauses, srv.Requests(), res.BytesWritten, len(req))
				}
			})
		}
	}
}

// A request still being written when its timeout passes (a server that
// never reads an 8 MiB body) is a timeout with one cause on both
// transports, the true one: it was still being written.
func TestTimeoutWhileWriting(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var held []net.Conn // accepted, never read
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		for _, c := range held {
			c.Close()
		}
	})
	u, _ := url.Parse("http://" + ln.Addr().String() + "/")
	body := make([]byte, 8<<20)
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			res, err := Run(t.Context(), Config{URL: u, Engine: engine, Body: body, Requests: 2, Connections: 1, Threads: 1,
				Timeout: 200 * time.Millisecond})
			if err != nil || res.Errors.Timeout != 2 || res.ErrorCauses["timeout"][causeWriteTimeout] != 2 {
				t.Errorf("err %v, errors %+v %v; want 2 timeouts %q", err, res.Errors, res.ErrorCauses, causeWriteTimeout)
			}
		})
	}
}
