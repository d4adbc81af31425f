package h3fixture

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/quic-go/quic-go/http3"
)

// TestWithQuicGoClient checks the fixture against a real HTTP/3 client,
// quic-go's own: honest responses are read, and each fault is an error.
func TestWithQuicGoClient(t *testing.T) {
	cases := []struct {
		name  string
		b     Behaviour
		fails bool
	}{
		{"honest", Behaviour{Status: 201, BodySize: 5000}, false},
		{"ReservedFrame", Behaviour{ReservedFrame: true}, true},
		{"BadQPACK", Behaviour{BadQPACK: true}, true},
		{"ContentLengthMismatch", Behaviour{ContentLengthMismatch: true, BodySize: 10}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Start(t, tc.b)
			tr := &http3.Transport{TLSClientConfig: s.ClientTLS()}
			defer tr.Close()
			resp, err := (&http.Client{Transport: tr, Timeout: testDeadline}).Post(s.URL()+"interop", "text/plain", strings.NewReader("abc"))
			var n int64
			if err == nil {
				n, err = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
			}
			if tc.fails {
				if err == nil {
					t.Errorf("no error, want one")
				}
				t.Logf("the client's error: %v", err)
				return
			}
			if err != nil || resp.StatusCode != tc.b.Status || n != int64(tc.b.BodySize) {
				t.Fatalf("got %v, %d bytes (%v)", resp, n, err)
			}
			want(t, "Requests", s.Requests(), 1)
			want(t, "Responses", s.Responses(), 1)
			want(t, "BodyBytes", s.BodyBytes(), 3)
			want(t, "Paths[/interop]", s.Paths()["/interop"], 1)
			want(t, "Violations", s.Violations(), 0)
		})
	}
}
