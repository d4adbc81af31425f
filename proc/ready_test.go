package proc

import (
	"net"
	"net/http"
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
		status, _, err := probe(t.Context(), readyClient("", h2), target, time.Now().Add(5*time.Second))
		if got := err == nil && status == 200; got != h2 {
			t.Errorf("HTTP/2 probes %v: status %d, %v", h2, status, err)
		}
	}
}
