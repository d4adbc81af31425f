package h2fixture

import (
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"testing"

	"golang.org/x/net/http2"
)

// Options configures an honest server.
type Options struct {
	// TLS serves h2 over TLS with a fresh self-signed certificate, ALPN
	// offering "h2" only. Without it the server speaks h2c with prior
	// knowledge: the client sends the preface at once, no Upgrade.
	TLS bool
	// HTTP1Only (implies TLS) serves HTTP/1.1 over TLS with ALPN offering
	// "http/1.1" only, for the "server did not negotiate HTTP/2" case.
	// Go's TLS server then ends a handshake whose client offers "h2" alone
	// with a no_application_protocol alert; a client offering "h2" and
	// "http/1.1" negotiates "http/1.1".
	HTTP1Only bool
	// NoALPN (implies HTTP1Only) ignores ALPN entirely, as a TLS server
	// without an ALPN callback: the handshake succeeds and the negotiated
	// protocol is empty.
	NoALPN bool
	// MaxConcurrentStreams is the SETTINGS_MAX_CONCURRENT_STREAMS the h2
	// server advertises; 0 means x/net's default (250).
	MaxConcurrentStreams uint32
}

// Honest is a running golang.org/x/net/http2 server on 127.0.0.1. Its
// handlers are:
//
//	/            200, empty body
//	/bytes/N     200, a body of N 'x' bytes
//	/delay/MS    200, empty body, after MS milliseconds (cut short by Close)
//	/status/CODE CODE, empty body
//
// Any other path is 404. Request bodies are read and counted. It is closed
// by the test's Cleanup.
type Honest struct {
	acc     *acceptor
	hs      *http.Server // the HTTP/1.1 server of HTTP1Only, else nil
	url     string
	addr    string
	client  *tls.Config
	counter counter
	done    chan struct{} // closed at Cleanup: cuts /delay short
}

// StartHonest starts an honest server and registers its Close with
// t.Cleanup.
func StartHonest(t testing.TB, o Options) *Honest {
	t.Helper()
	h := &Honest{done: make(chan struct{})}
	// Registered last, so it runs first: /delay handlers return before
	// the connections are closed and waited for.
	defer t.Cleanup(func() { close(h.done) })
	o.HTTP1Only = o.HTTP1Only || o.NoALPN
	mux := h.handler()
	if o.HTTP1Only {
		h.startHTTP1(t, o, mux)
		return h
	}
	var server *tls.Config
	if o.TLS {
		c := newCerts(t)
		server, h.client = c.server("h2"), c.client()
	}
	// x/net's Server serves one accepted connection (ServeConn), after the
	// fixture's own TLS handshake, which net/http's server does not offer.
	h2s := &http2.Server{MaxConcurrentStreams: o.MaxConcurrentStreams} //lint:ignore SA1019 ServeConn has no net/http equivalent
	h.acc = listen(t, func(nc net.Conn) {
		nc, ok := handshake(nc, server)
		if !ok {
			return
		}
		h2s.ServeConn(nc, &http2.ServeConnOpts{Handler: mux, BaseConfig: &http.Server{}}) //lint:ignore SA1019 as above
	})
	h.addr = h.acc.addr()
	h.url = scheme(o.TLS) + h.addr + "/"
	return h
}

// startHTTP1 serves HTTP/1.1 over TLS with net/http, HTTP/2 disabled.
func (h *Honest) startHTTP1(t testing.TB, o Options, mux http.Handler) {
	c := newCerts(t)
	cfg := c.server("http/1.1")
	if o.NoALPN {
		cfg.NextProtos = nil
	}
	h.client = c.client()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h.hs = &http.Server{Handler: mux, TLSNextProto: map[string]func(*http.Server, *tls.Conn, http.Handler){}}
	served := make(chan struct{})
	go func() {
		defer close(served)
		if err := h.hs.Serve(tls.NewListener(ln, cfg)); !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("h2fixture: HTTP/1.1 server: %v", err)
		}
	}()
	t.Cleanup(func() { _ = h.hs.Close(); <-served })
	h.addr = ln.Addr().String()
	h.url = "https://" + h.addr + "/"
}

// URL returns the base URL, "http://127.0.0.1:PORT/" (h2c) or
// "https://127.0.0.1:PORT/".
func (h *Honest) URL() string { return h.url }

// Addr returns "127.0.0.1:PORT".
func (h *Honest) Addr() string { return h.addr }

// ClientTLS returns a client TLS configuration that trusts the server's
// certificate (RootCAs), names 127.0.0.1 and offers ALPN "h2" only; nil
// for h2c. Each call returns a fresh copy the caller may change.
func (h *Honest) ClientTLS() *tls.Config { return cloneTLS(h.client) }

// Requests returns the number of requests whose handler has started.
func (h *Honest) Requests() int64 { return h.counter.total() }

// RequestsFor returns the number of requests for path (exact, such as
// "/bytes/10").
func (h *Honest) RequestsFor(path string) int64 { return h.counter.path(path) }

// BodyBytes returns the request body bytes the handlers have read.
func (h *Honest) BodyBytes() int64 { return h.counter.body.Load() }
