package engine

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/target"
)

func TestHTTPS(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { n.Add(1) }))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	tests := []struct {
		name    string
		tls     *tls.Config
		wantErr bool
	}{
		{"trusted CA", &tls.Config{RootCAs: roots}, false},
		{"insecure", &tls.Config{InsecureSkipVerify: true}, false},
		{"unknown CA", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n.Store(0)
			res, err := Run(t.Context(), Config{URL: u, TLS: tt.tls, Connections: 2, Threads: 1, Requests: 50, Timeout: 5 * time.Second})
			if tt.wantErr {
				if err == nil {
					t.Error("an untrusted certificate was accepted")
				}
				return
			}
			if err != nil || res.Requests != 50 || n.Load() != 50 || res.Errors != (stats.Errors{}) {
				t.Errorf("err %v, requests %d, server %d, errors %+v", err, res.Requests, n.Load(), res.Errors)
			}
		})
	}
}

func TestUnixSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Skip("no unix sockets:", err)
	}
	srv := target.New()
	go srv.Serve(ln) //nolint:errcheck // ends with Shutdown
	t.Cleanup(func() { srv.Shutdown() })
	u, _ := url.Parse("http://localhost/status/201")
	res, err := Run(t.Context(), Config{URL: u, UnixSocket: path, Connections: 2, Threads: 1, Requests: 30, Timeout: 5 * time.Second})
	if err != nil || res.Status["201"] != 30 {
		t.Errorf("err %v, status %v: want 30 × 201 over the socket", err, res.Status)
	}
}

func TestHeadResponsesHaveNoBody(t *testing.T) {
	for _, engine := range transports() {
		for _, depth := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/pipeline %d", engine, depth), func(t *testing.T) {
				u := builtinTarget(t)
				u.Path = "/bytes/100" // Content-Length: 100, but no body follows a HEAD
				res, err := Run(t.Context(), Config{URL: u, Engine: engine, Method: "HEAD", Pipeline: depth,
					Connections: 1, Threads: 1, Requests: 20, Timeout: 2 * time.Second})
				if err != nil || res.Requests != 20 || res.Errors != (stats.Errors{}) {
					t.Errorf("err %v, requests %d, errors %+v %v", err, res.Requests, res.Errors, res.ErrorCauses)
				}
			})
		}
	}
}

// Interim (1xx), 204 and 304 responses have no body, whatever their
// header says (RFC 9110 §15.2, §15.3.5, §15.4.5), alone or pipelined.
func TestBodilessStatusesHaveNoBody(t *testing.T) {
	tests := []struct {
		name, raw string
		status    string
	}{
		{"204 with a Content-Length", "HTTP/1.1 204 No Content\r\nContent-Length: 100\r\n\r\n", "204"},
		{"204 with chunked", "HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n", "204"},
		{"304 with a Content-Length", "HTTP/1.1 304 Not Modified\r\nContent-Length: 100\r\n\r\n", "304"},
		{"interim responses first", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n" +
			"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", "200"},
	}
	for _, engine := range transports() {
		for _, tt := range tests {
			for _, depth := range []int{1, 4} {
				t.Run(fmt.Sprintf("%s/%s/pipeline %d", engine, tt.name, depth), func(t *testing.T) {
					srv := fixture.New(t, fixture.Behaviour{Misbehave: fixture.Misbehaviour{Raw: []byte(tt.raw)}})
					res := runLoad(t, srv, Config{Engine: engine, Pipeline: depth, Requests: 20, Timeout: 2 * time.Second})
					if res.Requests != 20 || res.Status[tt.status] != 20 || res.Errors != (stats.Errors{}) {
						t.Errorf("requests %d, status %v, errors %+v %v; want 20 × %s", res.Requests, res.Status, res.Errors, res.ErrorCauses, tt.status)
					}
				})
			}
		}
	}
}

func TestLargeResponseHeadersGrowTheReadBuffer(t *testing.T) {
	tests := []struct {
		name   string
		size   int
		errors int64
	}{
		{"fits the initial buffer", 100, 0},
		{"needs a larger buffer", 5000, 0},
		{"needs the largest buffer", 50_000, 0},
		{"too large", 100_000, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			value := strings.Repeat("v", tt.size)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("X-Big", value)
				w.Write([]byte("body")) //nolint:errcheck // test server
			}))
			t.Cleanup(srv.Close)
			u, _ := url.Parse(srv.URL)
			res, err := Run(t.Context(), Config{URL: u, Connections: 1, Threads: 1, Requests: 10, Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if res.Errors.Read != tt.errors || res.Requests != 10-tt.errors {
				t.Errorf("responses %d, read errors %d %v; want %d errors", res.Requests, res.Errors.Read, res.ErrorCauses, tt.errors)
			}
			if tt.errors > 0 && res.ErrorCauses["read"]["response header over 64 KiB"] != tt.errors {
				t.Errorf("causes %v", res.ErrorCauses)
			}
		})
	}
}
