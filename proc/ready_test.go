package proc

import (
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/h3fixture"
)

// TestReadinessProbesSpeakH2C: a server that speaks only h2c is ready to
// probes that speak HTTP/2, as an --http2 load's are, and never to
// HTTP/1.1 ones.
func TestReadinessProbesSpeakH2C(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := new(http.Protocols)
	p.SetUnencryptedHTTP2(true) // and no HTTP/1.1
	srv := &http.Server{Handler: http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), Protocols: p}
	go srv.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.Close() })
	target := "http://" + ln.Addr().String() + "/"
	for _, p := range []ReadyProtocol{ReadyHTTP2, ReadyHTTP1} {
		status, _, err := probe(t.Context(), readyClient(Spec{ReadyProtocol: p}), target, time.Now().Add(5*time.Second))
		if got := err == nil && status == 200; got != (p == ReadyHTTP2) {
			t.Errorf("%v probes: status %d, %v", p, status, err)
		}
	}
}

// TestReadinessProbesTrustTheLoadsCA: an https server whose certificate
// only the load's --cacert trusts is ready to probes given that trust,
// and never to probes with the system's roots alone.
func TestReadinessProbesTrustTheLoadsCA(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	t.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	for _, tt := range []struct {
		name string
		tls  *tls.Config
		want bool
	}{{"with the load's CA", &tls.Config{RootCAs: pool}, true}, {"with the system's roots", nil, false}} {
		status, _, err := probe(t.Context(), readyClient(Spec{ReadyTLS: tt.tls}), srv.URL+"/", time.Now().Add(5*time.Second))
		if got := err == nil && status == 200; got != tt.want {
			t.Errorf("%s: status %d, %v; want ready %v", tt.name, status, err, tt.want)
		}
	}
}

// TestReadinessProbesSpeakHTTP3: a server that answers only over QUIC is
// ready to probes that speak HTTP/3, as an --http3 load's are, also when
// --connect-to sends them to its address, and never to probes over TCP.
func TestReadinessProbesSpeakHTTP3(t *testing.T) {
	srv := h3fixture.Start(t, h3fixture.Behaviour{})
	elsewhere := "https://127.0.0.1:1/" // the URL's port: nothing listens there
	for _, tt := range []struct {
		name string
		spec Spec
		want bool
	}{
		{"HTTP/3", Spec{ReadyURL: srv.URL(), ReadyProtocol: ReadyHTTP3, ReadyTLS: srv.ClientTLS()}, true},
		{"HTTP/3 to the --connect-to address", Spec{ReadyURL: elsewhere, ReadyAddress: srv.Addr(), ReadyProtocol: ReadyHTTP3, ReadyTLS: srv.ClientTLS()}, true},
		{"HTTP/3 to the URL's own port", Spec{ReadyURL: elsewhere, ReadyProtocol: ReadyHTTP3, ReadyTLS: srv.ClientTLS()}, false},
		{"over TCP", Spec{ReadyURL: srv.URL(), ReadyTLS: srv.ClientTLS()}, false},
	} {
		client := readyClient(tt.spec)
		status, _, err := probe(t.Context(), client, tt.spec.ReadyURL, time.Now().Add(5*time.Second))
		closeClient(client)
		if got := err == nil && status == 200; got != tt.want {
			t.Errorf("%s: status %d, %v; want ready %v", tt.name, status, err, tt.want)
		}
	}
	if srv.Requests() != 2 {
		t.Errorf("the server answered %d probes, want 2", srv.Requests())
	}
}

// TestHTTP3ProbesLeaveNoSocket: the HTTP/3 probes' UDP socket closes with
// their client, so a plan of many runs does not leak one per server start.
func TestHTTP3ProbesLeaveNoSocket(t *testing.T) {
	if _, err := os.ReadDir("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd to count descriptors")
	}
	srv := h3fixture.Start(t, h3fixture.Behaviour{})
	spec := Spec{ReadyURL: srv.URL(), ReadyProtocol: ReadyHTTP3, ReadyTLS: srv.ClientTLS()}
	open := func() int { fds, _ := os.ReadDir("/proc/self/fd"); return len(fds) }
	before := open()
	for range 5 {
		client := readyClient(spec)
		if status, _, err := probe(t.Context(), client, srv.URL(), time.Now().Add(5*time.Second)); err != nil || status != 200 {
			t.Fatalf("status %d, %v", status, err)
		}
		closeClient(client)
	}
	if after := open(); after > before {
		t.Errorf("%d descriptors open after 5 probing clients closed, %d before", after, before)
	}
}
