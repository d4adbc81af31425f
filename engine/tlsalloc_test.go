package engine

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/target"
)

// testTLS returns a server's TLS configuration offering protos in ALPN and
// a client's that trusts it: httptest's certificate for 127.0.0.1.
func testTLS(t *testing.T, protos ...string) (server, client *tls.Config) {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.StartTLS()
	defer srv.Close()
	server = &tls.Config{Certificates: srv.TLS.Certificates, NextProtos: protos}
	client = srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	return server, client
}

// tlsReads is crypto/tls's allocations per request in the TLS gate: one
// per record read, client and server.
const tlsReads = 2

// tlsListener listens on loopback with TLS; it is closed by the test's
// Cleanup.
func tlsListener(t *testing.T, server *tls.Config) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return tls.NewListener(ln, server)
}

// TestTLSNoAllocationPerRequest extends the allocation gate
// (TestNoAllocationPerRequest, TestHTTP2NoAllocationPerRequest) to the
// pairs over TLS, which the goroutine transport carries: HTTP/1.1 to the
// built-in target and HTTP/2 to the lean server, each behind crypto/tls.
// crypto/tls itself allocates once per record read (readFromUntil's
// atLeastReader escapes), on the client's side and the in-process
// server's: tlsReads allows those two per request, and nothing of
// pummel's (one more per request would be three).
func TestTLSNoAllocationPerRequest(t *testing.T) {
	if testing.Short() {
		t.Skip("counts allocations over a run")
	}
	if raceDetector {
		t.Skip("crypto/tls allocates more under -race: its pools are emptied at random")
	}
	t.Run("http1", func(t *testing.T) {
		server, client := testTLS(t)
		ln := tlsListener(t, server)
		srv := target.New()
		go srv.Serve(ln) //nolint:errcheck // ends with Shutdown
		t.Cleanup(func() { srv.Shutdown() })
		u := &url.URL{Scheme: "https", Host: ln.Addr().String(), Path: "/"}
		checkAllocationsBeyond(t, Config{URL: u, TLS: client, Engine: EngineGoroutine, Connections: 4, Threads: 2, Timeout: 5 * time.Second}, tlsReads)
	})
	for _, streams := range []int{1, 16} {
		t.Run(fmt.Sprintf("h2/streams %d", streams), func(t *testing.T) {
			server, client := testTLS(t, "h2")
			ln := tlsListener(t, server)
			go serveLean(ln, nginxBlock)
			u := &url.URL{Scheme: "https", Host: ln.Addr().String(), Path: "/"}
			checkAllocationsBeyond(t, Config{URL: u, TLS: client, Engine: EngineGoroutine, Connections: 4, Threads: 2,
				Timeout: 5 * time.Second, Protocol: HTTP2, Streams: streams}, tlsReads)
		})
	}
}
