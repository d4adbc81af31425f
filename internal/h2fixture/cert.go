package h2fixture

import (
	"crypto/tls"
	"crypto/x509"
	"testing"

	"github.com/pummel-dev/pummel/internal/testcert"
)

// certs is a self-signed certificate for 127.0.0.1, ::1 and localhost,
// with the pool a client needs to trust it.
type certs struct {
	cert tls.Certificate
	pool *x509.CertPool
}

// newCerts makes a fresh self-signed certificate valid for a day.
func newCerts(t testing.TB) certs {
	c := testcert.New(t, "h2fixture")
	return certs{cert: c.TLS, pool: c.Pool}
}

// server returns a server configuration offering protos in ALPN.
func (c certs) server(protos ...string) *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{c.cert}, NextProtos: protos, MinVersion: tls.VersionTLS12}
}

// client returns a client configuration that trusts the certificate and
// offers only "h2" in ALPN.
func (c certs) client() *tls.Config {
	return &tls.Config{RootCAs: c.pool, ServerName: "127.0.0.1", NextProtos: []string{"h2"}, MinVersion: tls.VersionTLS12}
}
