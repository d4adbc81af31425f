package h3fixture

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/quic-go/quic-go"
)

// TestCountsExact sends 1,000 POSTs over 4 connections, 25 at a time on
// each, and finds every one counted once, answered once.
func TestCountsExact(t *testing.T) {
	const conns, workers, each = 4, 25, 10
	const total = conns * workers * each
	s := Start(t, Behaviour{BodySize: 100})
	var wg sync.WaitGroup
	for range conns {
		c := dial(t, s)
		for range workers {
			wg.Go(func() {
				for range each {
					str, err := c.request("/count", 3)
					if err != nil {
						t.Error(err)
						return
					}
					if r, err := readResponse(str); err != nil || !r.ok(200, 100) {
						t.Errorf("response %+v (%v), want 200 with 100 bytes", r, err)
						return
					}
				}
			})
		}
	}
	wg.Wait()
	want(t, "Connections", s.Connections(), conns)
	want(t, "Streams", s.Streams(), total)
	want(t, "Requests", s.Requests(), total)
	want(t, "Responses", s.Responses(), total)
	want(t, "Paths[/count]", s.Paths()["/count"], total)
	want(t, "BodyBytes", s.BodyBytes(), 3*total)
	want(t, "Violations", s.Violations(), 0)
}

func TestResponses(t *testing.T) {
	cases := []struct {
		name   string
		b      Behaviour
		status int
		body   int
		frames []uint64
	}{
		{"zero", Behaviour{}, 200, 0, []uint64{frameHeaders}},
		{"status and body", Behaviour{Status: 404, BodySize: 100_000}, 404, 100_000, []uint64{frameHeaders, frameData}},
		{"server error", Behaviour{Status: 503, BodySize: 1}, 503, 1, []uint64{frameHeaders, frameData}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Start(t, tc.b)
			r := dial(t, s).get("/")
			if !r.ok(tc.status, tc.body) || !slices.Equal(r.frames, tc.frames) {
				t.Errorf("response %+v, want status %d, %d bytes, frames %v", r, tc.status, tc.body, tc.frames)
			}
			want(t, "Responses", s.Responses(), 1)
		})
	}
}

func TestDelay(t *testing.T) {
	const delay = 100 * time.Millisecond
	s := Start(t, Behaviour{Delay: delay})
	c := dial(t, s)
	start := time.Now()
	if r := c.get("/"); !r.ok(200, 0) {
		t.Errorf("response %+v", r)
	}
	if d := time.Since(start); d < delay {
		t.Errorf("answered after %v, want at least %v", d, delay)
	}
}

// TestDelayCancelled cancels a delayed request: the server counts the
// cancellation and never answers.
func TestDelayCancelled(t *testing.T) {
	s := Start(t, Behaviour{Delay: time.Hour})
	c := dial(t, s)
	str, err := c.request("/", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !eventually(func() bool { return s.Requests() == 1 }) {
		t.Fatal("request not counted")
	}
	str.CancelRead(CodeRequestCancelled)
	str.CancelWrite(CodeRequestCancelled)
	if !eventually(func() bool { return s.Cancelled() == 1 }) {
		t.Errorf("Cancelled = %d, want 1", s.Cancelled())
	}
	want(t, "Responses", s.Responses(), 0)
}

func TestMaxStreams(t *testing.T) {
	s := Start(t, Behaviour{MaxStreams: 2, StallEvery: 1})
	c := dial(t, s)
	for i := range 2 {
		if _, err := c.qc.OpenStream(); err != nil {
			t.Fatalf("stream %d: %v", i, err)
		}
	}
	_, err := c.qc.OpenStream()
	if !errors.As(err, new(*quic.StreamLimitReachedError)) {
		t.Errorf("third stream: %v, want StreamLimitReachedError", err)
	}
}

// TestCAFile dials with a pool built from the PEM file alone.
func TestCAFile(t *testing.T) {
	s := Start(t, Behaviour{})
	pem, err := os.ReadFile(s.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatal("CAFile holds no certificate")
	}
	for _, name := range []string{"localhost", "127.0.0.1"} {
		tc := &tls.Config{RootCAs: pool, ServerName: name, NextProtos: []string{"h3"}}
		qc, err := dialQUIC(s.Addr(), tc, nil)
		if err != nil {
			t.Fatalf("ServerName %s: %v", name, err)
		}
		want(t, "ALPN", qc.ConnectionState().TLS.NegotiatedProtocol, "h3")
		_ = qc.CloseWithError(0, "")
	}
	tc := s.ClientTLS()
	want(t, "ClientTLS ServerName", tc.ServerName, "localhost")
	want(t, "ClientTLS ALPN", slices.Equal(tc.NextProtos, []string{"h3"}), true)
	want(t, "URL", s.URL(), "https://"+s.Addr()+"/")
}

// TestUnknownFramesSkipped sends frames of unknown types (the grease
// values of RFC 9114 §7.2.8) around a request's HEADERS and DATA: the
// server skips them.
func TestUnknownFramesSkipped(t *testing.T) {
	s := Start(t, Behaviour{})
	c := dial(t, s)
	grease := appendFrame(nil, 0x21, []byte("skip me"))
	raw := append(append([]byte{}, grease...), headers("POST", "/grease")...)
	raw = append(raw, grease...)
	raw = appendFrame(raw, frameData, []byte("body"))
	raw = append(raw, grease...)
	str, err := c.open(raw)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := readResponse(str); err != nil || !r.ok(200, 0) {
		t.Errorf("response %+v (%v)", r, err)
	}
	want(t, "BodyBytes", s.BodyBytes(), 4)
	want(t, "Violations", s.Violations(), 0)
}
