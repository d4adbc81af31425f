package proc

import (
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
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
	for _, h2 := range []bool{true, false} {
		status, _, err := probe(t.Context(), readyClient("", h2, nil), target, time.Now().Add(5*time.Second))
		if got := err == nil && status == 200; got != h2 {
			t.Errorf("HTTP/2 probes %v: status %d, %v", h2, status, err)
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
		status, _, err := probe(t.Context(), readyClient("", false, tt.tls), srv.URL+"/", time.Now().Add(5*time.Second))
		if got := err == nil && status == 200; got != tt.want {
			t.Errorf("%s: status %d, %v; want ready %v", tt.name, status, err, tt.want)
		}
	}
}
