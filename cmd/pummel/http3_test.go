package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/internal/h3fixture"
	"github.com/pummel-dev/pummel/stats"
)

// TestHTTP3Load runs an HTTP/3 load from the command line: exact -n, the
// protocol named in the text and recorded in the JSON with the QUIC
// counts, a request log with a line per request.
func TestHTTP3Load(t *testing.T) {
	srv := h3fixture.Start(t, h3fixture.Behaviour{BodySize: 100})
	load := []string{"--http3", "--cacert", srv.CAFile(), "--streams", "4", "-c", "2", "-t", "1", "-n", "300"}
	code, out, errOut := pummel(t.Context(), append(load, srv.URL())...)
	if code != 0 || !strings.Contains(out, "  Protocol: HTTP/3 (h3), 2 connections × 4 streams\n") || !strings.Contains(out, "300 requests in") ||
		!strings.Contains(out, "QUIC packets per response: ") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s", code, out, errOut)
	}
	code, out, _ = pummel(t.Context(), append(load, "--format", "json", srv.URL())...)
	var res stats.Result
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
		t.Fatalf("exit %d, %v", code, err)
	}
	if res.Config.Protocol != "h3" || res.Config.Streams != 4 || res.Requests != 300 || srv.Responses() != 600 || res.QUIC == nil {
		t.Errorf("config %+v, %d requests, QUIC %+v, server answered %d", res.Config, res.Requests, res.QUIC, srv.Responses())
	}
	log := filepath.Join(t.TempDir(), "requests.csv")
	code, _, errOut = pummel(t.Context(), append(load, "--log-requests", log, "-q", srv.URL())...)
	data, err := os.ReadFile(log)
	if code != 0 || err != nil || strings.Count(string(data), "\n") != 301 {
		t.Errorf("exit %d (%s), %v: %d log lines, want a header and 300", code, errOut, err, strings.Count(string(data), "\n"))
	}
}

// TestHTTP3RefusedByTheServerExitsOne: a server without h3 in ALPN ends
// an --http3 run with one line and exit 1.
func TestHTTP3RefusedByTheServerExitsOne(t *testing.T) {
	srv := h3fixture.Start(t, h3fixture.Behaviour{NoH3ALPN: true})
	code, out, errOut := pummel(t.Context(), "--http3", "--cacert", srv.CAFile(), "-c", "2", "-n", "10", srv.URL())
	want := "the server did not negotiate HTTP/3 (ALPN h3)"
	if code != 1 || !strings.Contains(errOut, want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("exit %d, stderr %q, stdout %q; want exit 1 and one line naming %q", code, errOut, out, want)
	}
}

// TestHTTP3UntrustedCertificateExitsOne: a certificate the client does not
// trust ends an --http3 run with the line a TLS run over TCP prints, and
// its advice.
func TestHTTP3UntrustedCertificateExitsOne(t *testing.T) {
	srv := h3fixture.Start(t, h3fixture.Behaviour{})
	code, out, errOut := pummel(t.Context(), "--http3", "-c", "2", "-n", "10", srv.URL())
	want := ": tls: failed to verify certificate: x509: certificate signed by unknown authority; to trust it, pass --cacert FILE"
	if code != 1 || !strings.Contains(errOut, want) || strings.Contains(errOut, "CRYPTO_ERROR") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("exit %d, stderr %q, stdout %q; want exit 1 and one line with %q", code, errOut, out, want)
	}
}
