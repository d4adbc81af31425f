package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/internal/h2fixture"
	"github.com/pummel-dev/pummel/stats"
)

// TestHTTP2Load runs an h2c load from the command line: exact -n, the
// protocol named in the text and recorded in the JSON.
func TestHTTP2Load(t *testing.T) {
	srv := h2fixture.StartHonest(t, h2fixture.Options{})
	code, out, errOut := pummel(t.Context(), "--http2", "--streams", "4", "-c", "2", "-t", "1", "-n", "300", srv.URL())
	if code != 0 || !strings.Contains(out, "  Protocol: HTTP/2 (h2c), 2 connections × 4 streams\n") || !strings.Contains(out, "300 requests in") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s", code, out, errOut)
	}
	code, out, _ = pummel(t.Context(), "--http2", "--streams", "4", "-c", "2", "-t", "1", "-n", "300", "--format", "json", srv.URL())
	var res stats.Result
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
		t.Fatalf("exit %d, %v", code, err)
	}
	if res.Config.Protocol != "h2c" || res.Config.Streams != 4 || res.Requests != 300 || srv.Requests() != 600 {
		t.Errorf("config %+v, %d requests, server saw %d", res.Config, res.Requests, srv.Requests())
	}
	log := filepath.Join(t.TempDir(), "requests.csv")
	code, _, errOut = pummel(t.Context(), "--http2", "--streams", "4", "-c", "2", "-n", "300", "--log-requests", log, "-q", srv.URL())
	data, err := os.ReadFile(log)
	if code != 0 || err != nil || strings.Count(string(data), "\n") != 301 {
		t.Errorf("exit %d (%s), %v: %d log lines, want a header and 300", code, errOut, err, strings.Count(string(data), "\n"))
	}
}

// TestHTTP2RefusedByTheServerExitsOne: a TLS server that chooses
// HTTP/1.1 ends an --http2 run with one line and exit 1.
func TestHTTP2RefusedByTheServerExitsOne(t *testing.T) {
	srv := h2fixture.StartHonest(t, h2fixture.Options{TLS: true, HTTP1Only: true})
	code, out, errOut := pummel(t.Context(), "--http2", "--insecure", "-c", "2", "-n", "10", srv.URL())
	want := "the server did not negotiate HTTP/2 (ALPN: http/1.1)"
	if code != 1 || !strings.Contains(errOut, want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("exit %d, stderr %q, stdout %q; want exit 1 and one line naming %q", code, errOut, out, want)
	}
}

// TestHTTP1ToAnHTTP2OnlyServerSaysAddHTTP2: a load without --http2 on a
// server that speaks HTTP/2 alone says, in the text's error set, what to
// add, on both transports.
func TestHTTP1ToAnHTTP2OnlyServerSaysAddHTTP2(t *testing.T) {
	srv := h2fixture.StartH2COnly(t, true)
	engines := []string{"goroutine"}
	if runtime.GOOS == "linux" {
		engines = append(engines, "loop")
	}
	for _, engine := range engines {
		code, out, errOut := pummel(t.Context(), "--engine", engine, "-c", "2", "-t", "1", "-n", "4", srv.URL())
		if code != exitFailed || !strings.Contains(out, "  read: the server speaks HTTP/2: add --http2 ") {
			t.Errorf("--engine %s: exit %d, stdout:\n%s\nstderr: %s", engine, code, out, errOut)
		}
	}
}
