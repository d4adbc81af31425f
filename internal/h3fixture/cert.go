package h3fixture

import (
	"crypto/tls"
	"crypto/x509"
	"testing"

	"github.com/pummel-dev/pummel/internal/testcert"
)

// nextProtoH3 is HTTP/3's ALPN token.
const nextProtoH3 = "h3"

// certs is a self-signed certificate for 127.0.0.1, ::1 and localhost,
// with the pool a client needs to trust it and its PEM file.
type certs struct {
	cert tls.Certificate
	pool *x509.CertPool
	file string // PEM of the certificate, in t.TempDir()
}

// newCerts makes a fresh self-signed certificate valid for a day and
// writes its PEM to t.TempDir().
func newCerts(t testing.TB) certs {
	c := testcert.New(t, "h3fixture")
	return certs{cert: c.TLS, pool: c.Pool, file: c.WritePEM(t, "h3fixture-ca.pem")}
}

// server returns a server configuration offering protos in ALPN. QUIC
// needs TLS 1.3.
func (c certs) server(protos ...string) *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{c.cert}, NextProtos: protos, MinVersion: tls.VersionTLS13}
}

// client returns a client configuration that trusts the certificate,
// names localhost and offers only "h3" in ALPN.
func (c certs) client() *tls.Config {
	return &tls.Config{RootCAs: c.pool, ServerName: "localhost", NextProtos: []string{nextProtoH3}, MinVersion: tls.VersionTLS13}
}
