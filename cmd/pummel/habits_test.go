package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHabitsOfOtherTools: a flag spelled as ab, hey, oha or Vegeta spell
// it, or misspelled, is refused in one line that says what to type.
func TestHabitsOfOtherTools(t *testing.T) {
	const url = "http://127.0.0.1:1/"
	tests := []struct {
		name string
		args []string
		want string // in the one line
	}{
		{"ab's -p", []string{"-p", "post.json", "-T", "application/json", url}, "-p: unknown flag; ab's -p FILE is --body-file FILE"},
		{"hey's -z", []string{"-z", "30s", "-c", "50", url}, "-z: unknown flag; hey's and oha's -z D is -d D"},
		{"hey's -D", []string{"-D", "body.json", url}, "--body-file FILE"},
		{"hey's --disable-keepalive", []string{"--disable-keepalive", url}, "is --no-keepalive"},
		{"oha's -q", []string{"-d", "30s", "-c", "50", "-q", "100", url}, "hey's and oha's -q RATE is -R RATE"},
		{"oha's -q after the URL", []string{url, "-q", "100"}, "hey's and oha's -q RATE is -R RATE"},
		{"hey's -d BODY", []string{"-d", "hello", url}, "hey's and oha's -d BODY is -b BODY"},
		{"ab's -t over -c", []string{"-t", "30", "-c", "2", url}, "-t/--threads: 30 threads for 2 connections; use at most 2; ab's -t SECONDS is -d SECONDS here"},
		{"misspelled long flag", []string{"--conections", "3", url}, "--conections: unknown flag; did you mean --connections?"},
		{"misspelled alias", []string{"--latncy", url}, "did you mean --latency?"},
		{"misspelled flag of a command", []string{"report", "--plott", "d", "a.json"}, "--plott: unknown flag; did you mean --plot?"},
		{"nothing near", []string{"--bogus", url}, "--bogus: unknown flag (pummel --help lists them)"},
		{"no guess for one letter", []string{"-x", url}, "-x: unknown flag (pummel --help lists them)"},
		{"another tool's flag on another command", []string{"report", "-p", "a.json"}, "-p: unknown flag (pummel --help lists them)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := pummel(t.Context(), tt.args...)
			if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Errorf("pummel %q: exit %d, stdout %q, stderr %q; want exit 2 and one line holding %q",
					tt.args, code, stdout, stderr, tt.want)
			}
		})
	}
}

// TestMisspeltCommand: a first argument that is no URL but close to a
// command's name is refused as a misspelt command, not as a URL or a
// second URL; a word far from every command, or a URL, is judged as
// today.
func TestMisspeltCommand(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // the one line
	}{
		{"capcity", []string{"capcity", "-c", "1", "http://127.0.0.1:1/"}, `pummel: unknown command "capcity": did you mean capacity?`},
		{"reprot", []string{"reprot", "x.json"}, `pummel: unknown command "reprot": did you mean report?`},
		{"reprot alone", []string{"reprot"}, `pummel: unknown command "reprot": did you mean report?`},
		{"after flags", []string{"-q", "comapre", "a.json", "b.json"}, `pummel: unknown command "comapre": did you mean compare?`},
		{"suit", []string{"suit", "plan.yaml"}, `pummel: unknown command "suit": did you mean suite?`},
		{"sevre", []string{"sevre", "--addr", ":8080"}, `pummel: unknown command "sevre": did you mean serve?`},
		{"dmeo", []string{"dmeo"}, `pummel: unknown command "dmeo": did you mean demo?`},
		{"hlep", []string{"hlep"}, `pummel: unknown command "hlep": did you mean help?`},
		{"rnu", []string{"rnu", "http://127.0.0.1:1/"}, `pummel: unknown command "rnu": did you mean run?`},
		{"far from every command", []string{"bogus", "x.json"}, `pummel: unexpected argument "x.json": give one URL (flags may come before or after it)`},
		{"far, alone", []string{"bogus"}, `pummel: URL: "bogus" is not an http:// or https:// URL with a host`},
		{"a host name", []string{"report.example"}, `pummel: URL: "report.example" is not an http:// or https:// URL with a host`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := pummel(t.Context(), tt.args...)
			if code != exitUsage || stdout != "" || stderr != tt.want+"\n" {
				t.Errorf("pummel %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.args, code, stdout, stderr, tt.want)
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "abc", 3}, {"threads", "threads", 0},
		{"threds", "threads", 1}, {"thraeds", "threads", 1}, {"kitten", "sitting", 3},
		{"reprot", "report", 1}, {"ab", "ba", 1}, {"abc", "ca", 3}, {"capcity", "capacity", 1},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestCertificateRejectedSaysWhatToDo: a server certificate that cannot
// be verified ends the run with the flags that fix it.
func TestCertificateRejectedSaysWhatToDo(t *testing.T) {
	srv, ca := tlsServer(t, time.Now().Add(time.Hour))
	expired, expiredCA := tlsServer(t, time.Now().Add(-time.Hour))
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	const trust = "pass --cacert FILE (the PEM of the CA that signed it), or --insecure to skip verification"
	tests := []struct {
		name        string
		args        []string
		cause, hint string
	}{
		{"unknown authority", []string{srv.URL + "/"}, "unknown authority", trust},
		{"another host's name", []string{"--cacert", ca, "https://localhost:" + port + "/"}, "wanted to match localhost",
			"use a host name the certificate holds, or --insecure to skip verification"},
		{"expired", []string{"--cacert", expiredCA, expired.URL + "/"}, "expired", trust},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"-n", "2", "-c", "1", "-q"}, tt.args...)
			code, _, stderr := pummel(t.Context(), args...)
			if code != exitFailed || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.cause) || !strings.Contains(stderr, tt.hint) {
				t.Errorf("pummel %q: exit %d, stderr %q; want exit 1 and one line with %q and %q", args, code, stderr, tt.cause, tt.hint)
			}
		})
	}
}

// tlsServer starts an HTTPS server on 127.0.0.1 with a self-signed
// certificate for 127.0.0.1 only, valid until notAfter, and returns it
// with the certificate's PEM file.
func tlsServer(t *testing.T, notAfter time.Time) (*httptest.Server, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "pummel test"},
		NotBefore: notAfter.Add(-24 * time.Hour), NotAfter: notAfter,
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshakes pummel abandons
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv, ca
}
