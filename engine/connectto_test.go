package engine

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

func TestAddressFollowsTheFirstMatchingRule(t *testing.T) {
	to := func(h, p, th, tp string) ConnectTo { return ConnectTo{Host: h, Port: p, ToHost: th, ToPort: tp} }
	resolve := func(h, p, a string) ConnectTo { return ConnectTo{Host: h, Port: p, ToHost: a, Resolve: true} }
	tests := []struct {
		url        string
		rules      []ConnectTo
		want       string
		redirected bool
	}{
		{"http://a.test:81/", nil, "a.test:81", false},
		{"http://a.test:81/", []ConnectTo{to("a.test", "81", "127.0.0.1", "9000")}, "127.0.0.1:9000", true},
		{"http://A.Test/", []ConnectTo{to("a.test", "80", "127.0.0.1", "9000")}, "127.0.0.1:9000", true},
		{"https://a.test/", []ConnectTo{to("a.test", "80", "127.0.0.1", "9000")}, "a.test:443", false},
		{"http://a.test:81/", []ConnectTo{to("b.test", "81", "127.0.0.1", "1"), to("a.test", "81", "127.0.0.2", "2"), to("a.test", "81", "127.0.0.3", "3")}, "127.0.0.2:2", true},
		{"http://a.test:81/", []ConnectTo{to("", "", "", "9000")}, "a.test:9000", true},
		{"http://a.test:81/", []ConnectTo{to("", "81", "::1", "")}, "[::1]:81", true},
		{"http://[::1]:81/", []ConnectTo{to("::1", "81", "127.0.0.1", "82")}, "127.0.0.1:82", true},
		{"http://a.test:81/", []ConnectTo{resolve("a.test", "81", "127.0.0.1")}, "127.0.0.1:81", true},
		{"http://a.test:81/", []ConnectTo{resolve("a.test", "80", "127.0.0.1")}, "a.test:81", false},
		// curl: --connect-to first, then --resolve on the name it left.
		{"http://a.test:81/", []ConnectTo{resolve("b.test", "82", "127.0.0.9"), to("a.test", "81", "b.test", "82")}, "127.0.0.9:82", true},
	}
	for _, tt := range tests {
		u, _ := url.Parse(tt.url)
		c := Config{URL: u, ConnectTo: tt.rules}
		if got, redirected := c.Address(); got != tt.want || redirected != tt.redirected {
			t.Errorf("%s %v: %s, %v; want %s, %v", tt.url, tt.rules, got, redirected, tt.want, tt.redirected)
		}
	}
}

func TestConnectToString(t *testing.T) {
	for _, tt := range []struct {
		r    ConnectTo
		want string
	}{
		{ConnectTo{Host: "h", Port: "80", ToHost: "127.0.0.1", ToPort: "8081"}, "h:80:127.0.0.1:8081"},
		{ConnectTo{ToPort: "8081"}, ":::8081"},
		{ConnectTo{Host: "::1", Port: "80", ToHost: "fe80::1", ToPort: "81"}, "[::1]:80:[fe80::1]:81"},
		{ConnectTo{Host: "h", Port: "443", ToHost: "::1", Resolve: true}, "h:443:[::1]"},
	} {
		if got := tt.r.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.r, got, tt.want)
		}
	}
}

// TestConnectToDialsTheOtherAddress sends a URL naming a host that does
// not resolve to a fixture on another port: the requests must arrive,
// with the URL's Host header, on both transports.
func TestConnectToDialsTheOtherAddress(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	_, port, _ := net.SplitHostPort(srv.Addr())
	for _, engine := range []string{EngineLoop, EngineGoroutine} {
		if engine == EngineLoop && !loopSupported {
			continue
		}
		for _, rule := range []ConnectTo{
			{Host: "example.test", Port: "8999", ToHost: "127.0.0.1", ToPort: port},
			{Host: "example.test", Port: port, ToHost: "127.0.0.1", Resolve: true},
		} {
			u, _ := url.Parse("http://example.test:" + rule.Port + "/")
			before := srv.Requests()
			res, err := Run(t.Context(), Config{URL: u, ConnectTo: []ConnectTo{rule}, Engine: engine,
				Connections: 2, Threads: 1, Requests: 20, Timeout: 5 * time.Second})
			if err != nil || res.Requests != 20 || srv.Requests()-before != 20 || res.Errors != (stats.Errors{}) {
				t.Fatalf("%s %s: err %v, requests %d, server %d, errors %+v", engine, rule, err, res.Requests, srv.Requests()-before, res.Errors)
			}
			if host := "\r\nHost: " + u.Host + "\r\n"; !bytes.Contains(srv.LastRequest(), []byte(host)) {
				t.Errorf("%s %s: the request lacks %q:\n%s", engine, rule, host, srv.LastRequest())
			}
		}
	}
}

// TestResolveKeepsTheURLsNameForTLS reaches a server whose certificate is
// for example.com at 127.0.0.1: verification must check the URL's name.
func TestResolveKeepsTheURLsNameForTLS(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	for _, host := range []string{"example.com", "example.org"} { // the certificate holds the first only
		u, _ := url.Parse("https://" + host + ":" + port + "/")
		rule := ConnectTo{Host: host, Port: port, ToHost: "127.0.0.1", Resolve: true}
		res, err := Run(t.Context(), Config{URL: u, ConnectTo: []ConnectTo{rule}, TLS: &tls.Config{RootCAs: roots},
			Connections: 1, Threads: 1, Requests: 5, Timeout: 5 * time.Second})
		if host == "example.com" && (err != nil || res.Requests != 5) {
			t.Errorf("%s: err %v, requests %d", host, err, res.Requests)
		}
		var wrongName x509.HostnameError
		if host == "example.org" && !errors.As(err, &wrongName) {
			t.Errorf("%s: err %v, want a certificate name mismatch", host, err)
		}
	}
}

func TestConnectToRefusesAUnixSocket(t *testing.T) {
	u, _ := url.Parse("http://a.test/")
	c := Config{URL: u, UnixSocket: "/tmp/x.sock", ConnectTo: []ConnectTo{{ToPort: "1"}}, Connections: 1, Threads: 1, Requests: 1, Timeout: time.Second}
	if err := c.Validate(); err == nil {
		t.Error("ConnectTo with UnixSocket was accepted")
	}
}
