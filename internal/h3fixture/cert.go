package h3fixture

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
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

// newCerts makes a fresh self-signed ECDSA certificate valid for a day
// and writes its PEM to t.TempDir().
func newCerts(t testing.TB) certs {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "h3fixture"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:              []string{"localhost"},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	file := filepath.Join(t.TempDir(), "h3fixture-ca.pem")
	if err := os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certs{cert: tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool: pool, file: file}
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
