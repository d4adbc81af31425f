package h2fixture

import (
	"crypto/tls"
	"io"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/net/http2"
)

// transport returns a client for h that speaks HTTP/2 only: prior
// knowledge for h2c.
func transport(h *Honest) *http.Transport {
	p := new(http.Protocols)
	p.SetHTTP2(true)
	p.SetUnencryptedHTTP2(true)
	return &http.Transport{TLSClientConfig: h.ClientTLS(), Protocols: p}
}

func TestHonest(t *testing.T) {
	paths := []struct {
		path   string
		status int
		body   int
	}{
		{"", 200, 0},
		{"bytes/1000", 200, 1000},
		{"delay/1", 200, 0},
		{"status/503", 503, 0},
		{"nothing/here", 404, 0},
	}
	for _, o := range []Options{{}, {TLS: true}} {
		t.Run(scheme(o.TLS), func(t *testing.T) {
			h := StartHonest(t, o)
			tr := transport(h)
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			for _, p := range paths {
				resp, err := client.Post(h.URL()+p.path, "text/plain", strings.NewReader("abc"))
				if err != nil {
					t.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				want(t, p.path+" protocol", resp.ProtoMajor, 2)
				want(t, p.path+" status", resp.StatusCode, p.status)
				want(t, p.path+" body", int(n), p.body)
			}
			want(t, "Requests", h.Requests(), int64(len(paths)))
			want(t, "RequestsFor /bytes/1000", h.RequestsFor("/bytes/1000"), 1)
			want(t, "BodyBytes", h.BodyBytes(), int64(3*len(paths)))
		})
	}
}

// TestHonestMaxConcurrentStreams reads the cap from the server's SETTINGS.
func TestHonestMaxConcurrentStreams(t *testing.T) {
	h := StartHonest(t, Options{MaxConcurrentStreams: 7})
	c := dial(t, h.Addr(), nil, bigWindow)
	c.until(func(r *record) bool { return r.settled })
	want(t, "MAX_CONCURRENT_STREAMS 7 sent", hasSetting(&c.got, http2.SettingMaxConcurrentStreams, 7), true)
}

// TestHonestHTTP1Only: a client offering h2 alone is refused or gets no
// protocol; one also offering http/1.1 gets http/1.1.
func TestHonestHTTP1Only(t *testing.T) {
	cases := []struct {
		name    string
		o       Options
		offer   []string
		ok      bool
		product string
	}{
		{"h2 only offered", Options{HTTP1Only: true}, []string{"h2"}, false, ""},
		{"h2 and http/1.1 offered", Options{HTTP1Only: true}, []string{"h2", "http/1.1"}, true, "http/1.1"},
		{"ALPN ignored", Options{NoALPN: true}, []string{"h2"}, true, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := StartHonest(t, tc.o)
			cfg := h.ClientTLS()
			cfg.NextProtos = tc.offer
			conn, err := tls.Dial("tcp", h.Addr(), cfg)
			want(t, "handshake succeeded", err == nil, tc.ok)
			if err != nil {
				return
			}
			defer conn.Close()
			want(t, "ALPN", conn.ConnectionState().NegotiatedProtocol, tc.product)
			_, err = io.WriteString(conn, "GET /status/204 HTTP/1.1\r\nHost: x\r\n\r\n")
			if err != nil {
				t.Fatal(err)
			}
			line := make([]byte, len("HTTP/1.1 204"))
			if _, err := io.ReadFull(conn, line); err != nil {
				t.Fatal(err)
			}
			want(t, "response", string(line), "HTTP/1.1 204")
			want(t, "Requests", h.Requests(), 1)
		})
	}
}
