package main

import (
	"bytes"
	"encoding/json"
	"encoding/pem"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

func TestParseConnectRules(t *testing.T) {
	tests := []struct {
		flag, in string
		want     engine.ConnectTo
	}{
		{"--connect-to", "h:80:127.0.0.1:8081", engine.ConnectTo{Host: "h", Port: "80", ToHost: "127.0.0.1", ToPort: "8081"}},
		{"--connect-to", "::127.0.0.1:", engine.ConnectTo{ToHost: "127.0.0.1"}},
		{"--connect-to", "[::1]:443:[fe80::1%eth0]:8443", engine.ConnectTo{Host: "::1", Port: "443", ToHost: "fe80::1%eth0", ToPort: "8443"}},
		{"--resolve", "example.com:443:127.0.0.1", engine.ConnectTo{Host: "example.com", Port: "443", ToHost: "127.0.0.1", Resolve: true}},
		{"--resolve", "example.com:443:[::1]", engine.ConnectTo{Host: "example.com", Port: "443", ToHost: "::1", Resolve: true}},
	}
	for _, tt := range tests {
		parse := map[string]func(string) (engine.ConnectTo, error){"--connect-to": parseConnectTo, "--resolve": parseResolve}[tt.flag]
		got, err := parse(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("%s %s: %+v, %v; want %+v", tt.flag, tt.in, got, err, tt.want)
		}
		if got.String() != tt.in && tt.in != "::127.0.0.1:" {
			t.Errorf("%s %s: recorded as %q", tt.flag, tt.in, got.String())
		}
	}
}

func TestBadConnectRulesExitTwoNamingTheFlagAndValue(t *testing.T) {
	tests := []struct{ flag, value string }{
		{"--connect-to", "h:80:127.0.0.1"},
		{"--connect-to", "h:80:127.0.0.1:8081:9"},
		{"--connect-to", "h:http:127.0.0.1:8081"},
		{"--connect-to", "h:80:127.0.0.1:70000"},
		{"--connect-to", "h:80:127.0.0.1:0"},
		{"--connect-to", "h:80:[::1:8081"},
		{"--connect-to", "h:80:[::1]8081"},
		{"--connect-to", "h:80:[example]:8081"},
		{"--connect-to", "h:80:a b:8081"},
		{"--connect-to", ""},
		{"--resolve", "h:80"},
		{"--resolve", "h:80:example.org"},
		{"--resolve", "h:80:::1"},
		{"--resolve", ":80:127.0.0.1"},
		{"--resolve", "h::127.0.0.1"},
		{"--resolve", "h:80:127.0.0.1:81"},
	}
	for _, tt := range tests {
		code, stdout, stderr := pummel(t.Context(), tt.flag, tt.value, "-n", "1", "http://h/")
		want := tt.flag + ": " + `"` + tt.value + `"`
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want 2 and one line naming %s", tt.flag, tt.value, code, stdout, stderr, want)
		}
	}
	code, _, stderr := pummel(t.Context(), "--unix", "/tmp/s.sock", "--resolve", "h:80:127.0.0.1", "-n", "1", "http://h/")
	if code != exitUsage || !strings.Contains(stderr, "--connect-to/--resolve: cannot be combined with a Unix socket") {
		t.Errorf("--unix with --resolve: exit %d, stderr %q; want 2", code, stderr)
	}
}

// TestConnectToLoadsAnotherAddress loads http://example.test:PORT1/, a
// name that does not resolve, sent to a fixture on 127.0.0.1:PORT2.
func TestConnectToLoadsAnotherAddress(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	_, port, _ := net.SplitHostPort(srv.Addr())
	engines := []string{"goroutine"}
	if runtime.GOOS == "linux" {
		engines = append(engines, "loop")
	}
	for _, eng := range engines {
		for _, tt := range []struct{ flag, rule, url string }{
			{"--connect-to", "example.test:8999:127.0.0.1:" + port, "http://example.test:8999/"},
			{"--resolve", "example.test:" + port + ":127.0.0.1", "http://example.test:" + port + "/"},
		} {
			code, stdout, stderr := pummel(t.Context(), tt.flag, tt.rule, "--engine", eng, "-c", "2", "-n", "20", "--format", "json", "-q", tt.url)
			var res stats.Result
			if err := json.Unmarshal([]byte(stdout), &res); code != 0 || err != nil {
				t.Fatalf("%s %s %s: exit %d, %v: %s", eng, tt.flag, tt.rule, code, err, stderr)
			}
			recorded := map[string][]string{"--connect-to": res.Config.ConnectTo, "--resolve": res.Config.Resolve}[tt.flag]
			if res.Requests != 20 || res.Config.Engine != eng || !slices.Equal(recorded, []string{tt.rule}) {
				t.Errorf("%s %s: requests %d, engine %s, recorded %q", eng, tt.rule, res.Requests, res.Config.Engine, recorded)
			}
			host := "\r\nHost: " + strings.TrimSuffix(strings.TrimPrefix(tt.url, "http://"), "/") + "\r\n"
			if !bytes.Contains(srv.LastRequest(), []byte(host)) {
				t.Errorf("%s %s: the request lacks %q:\n%s", eng, tt.rule, host, srv.LastRequest())
			}
		}
	}
}

// TestResolveVerifiesTheURLsName reaches a server whose certificate is for
// example.com at 127.0.0.1, trusting it by --cacert alone.
func TestResolveVerifiesTheURLsName(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := pummel(t.Context(), "--resolve", "example.com:"+port+":127.0.0.1", "--cacert", ca, "-c", "1", "-n", "5", "-q",
		"https://example.com:"+port+"/")
	if code != 0 {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

func TestUnmatchedRulesAreNotedOnce(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	code, _, stderr := pummel(t.Context(), "--connect-to", "other.test:80:127.0.0.1:1", "--resolve", "other.test:80:127.0.0.1",
		"-c", "1", "-n", "3", "-q", srv.URL())
	if note := "no --connect-to or --resolve rule matches " + srv.Addr(); code != 0 || strings.Count(stderr, note) != 1 {
		t.Errorf("exit %d, stderr %q: want 0 and one note %q", code, stderr, note)
	}
	_, port, _ := net.SplitHostPort(srv.Addr())
	code, _, stderr = pummel(t.Context(), "--resolve", "example.test:"+port+":127.0.0.1", "-c", "1", "-n", "3", "-q", "http://example.test:"+port+"/")
	if code != 0 || strings.Contains(stderr, "note") {
		t.Errorf("exit %d, stderr %q: want 0 and no note", code, stderr)
	}
}

// TestExecReadinessFollowsConnectTo starts a server on 127.0.0.1:PORT for
// a URL naming example.test: the readiness probes must go where the load
// goes.
func TestExecReadinessFollowsConnectTo(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // where --exec puts the server's log
	bin := pummelBinary(t)
	addr := fixture.FreeAddr(t)
	code, _, stderr := pummel(t.Context(), "--connect-to", "example.test:8999:"+addr, "--exec", bin+" serve --addr "+addr,
		"--ready-timeout", "10s", "--settle", "0", "-c", "1", "-n", "5", "-q", "http://example.test:8999/")
	if code != 0 {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
