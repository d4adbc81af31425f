package engine

import (
	"bytes"
	"net/url"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/internal/h2fixture"
	"github.com/pummel-dev/pummel/stats"
	"golang.org/x/net/http2"
)

// TestHTTP1ToAnHTTP2OnlyServerSaysAddHTTP2: HTTP/1.1 sent to a server
// that speaks HTTP/2 alone (h2c with prior knowledge) fails with a cause
// that says what to do, not "closed before responding", on both
// transports: whether the server closes after its SETTINGS, sends a
// GOAWAY first (nginx), or its SETTINGS hold what ends an HTTP/1.1 header
// and the parser refuses them.
func TestHTTP1ToAnHTTP2OnlyServerSaysAddHTTP2(t *testing.T) {
	var crlf bytes.Buffer // a SETTINGS frame holding "\r\n\r\n"
	_ = http2.NewFramer(&crlf, nil).WriteSettings(http2.Setting{ID: 0x0d0a, Val: 0x0d0a0d0a})
	servers := []struct {
		name  string
		start func(t *testing.T) string
	}{
		{"SETTINGS then close", func(t *testing.T) string { return h2fixture.StartH2COnly(t, false).URL() }},
		{"SETTINGS, GOAWAY, close", func(t *testing.T) string { return h2fixture.StartH2COnly(t, true).URL() }},
		{"SETTINGS with a blank line", func(t *testing.T) string {
			return fixture.New(t, fixture.Behaviour{Misbehave: fixture.Misbehaviour{Raw: crlf.Bytes()}}).URL()
		}},
	}
	for _, engine := range transports() {
		for _, srv := range servers {
			t.Run(engine+"/"+srv.name, func(t *testing.T) {
				u, err := url.Parse(srv.start(t))
				if err != nil {
					t.Fatal(err)
				}
				res, err := Run(t.Context(), Config{URL: u, Engine: engine, Connections: 2, Threads: 1,
					Requests: 6, Duration: 10 * time.Second, Timeout: 2 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				// A connection opened before a request was in hand (the
				// loop opens -c at once) has the greeting before the
				// request: bytes no request asked for, an error of their
				// own, with the same cause.
				causes := res.ErrorCauses["read"]
				if res.Requests != 0 || res.Errors.Read < 6 || res.Errors != (stats.Errors{Read: res.Errors.Read}) ||
					len(causes) != 1 || causes[causeSpeaksHTTP2] != res.Errors.Read {
					t.Errorf("responses %d, errors %+v, causes %v; want 6 or more read errors, each %q",
						res.Requests, res.Errors, res.ErrorCauses, causeSpeaksHTTP2)
				}
			})
		}
	}
}
