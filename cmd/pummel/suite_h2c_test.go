package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The test binary is an h2c-only server when h2cAddrEnv is set (see
// TestMain): the address to listen on, and the file to write the count
// of /load requests to when it is stopped.
const (
	h2cAddrEnv  = "PUMMEL_TEST_H2C_ADDR"
	h2cCountEnv = "PUMMEL_TEST_H2C_COUNT"
)

// serveH2COnly serves addr with net/http in HTTP/2 with prior knowledge
// and no HTTP/1.1, answering "h2c" to every request, until SIGTERM (as a
// suite stops its server); then it writes to countPath how many requests
// to /load it answered. It returns the exit code.
func serveH2COnly(addr, countPath string) int {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var load atomic.Int64
	p := new(http.Protocols)
	p.SetUnencryptedHTTP2(true)
	srv := &http.Server{Protocols: p, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/load" {
			load.Add(1)
		}
		io.WriteString(w, "h2c") //nolint:errcheck // the client counts what it gets
	})}
	go srv.Serve(ln) //nolint:errcheck // ends with Close
	<-stop
	srv.Close()
	if err := os.WriteFile(countPath, []byte(strconv.FormatInt(load.Load(), 10)), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// h2cPlan is a plan whose server is this test binary as an h2c-only
// server, writing its count to countPath, with ready added to
// server.ready and one HTTP/2 operation of 200 requests to /load.
func h2cPlan(bin, countPath, ready string) string {
	return fmt.Sprintf(`server:
  command: [%q]
  env: {%s: "127.0.0.1:{port}", %s: %q}
  ready: {url: "http://127.0.0.1:{port}/", %s}
  settle: 0s
operations:
  - name: load
    url: http://127.0.0.1:{port}/load
    http2: true
    streams: 4
    checks: {body_equals: h2c}
    load: {closed: {connections: 2, threads: 1, requests: 200}}
`, bin, h2cAddrEnv, h2cCountEnv, countPath, ready)
}

// TestSuiteH2COnlyServerGetsReady: a plan whose server speaks only h2c
// gets ready when its probes speak HTTP/2, by default (every operation
// does) or as server.ready.http2 says, and its operation runs whole; with
// HTTP/1.1 probes it fails within the ready timeout, with one line.
func TestSuiteH2COnlyServerGetsReady(t *testing.T) {
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		ready string // server.ready's fields after url
		code  int
		want  []string // in the one line on stderr, for a failure
	}{
		{"every operation http2", "timeout: 10s", 0, nil},
		{"ready.http2 true", "timeout: 10s, http2: true", 0, nil},
		{"ready.http2 false", "timeout: 500ms, http2: false", exitFailed, []string{"mode default, run 1: starting the server: server not ready within 500ms",
			" over HTTP/1.1: last answer: ", "(server.ready.http2 or .http3: true probes over HTTP/2 or HTTP/3)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			count, plan, dir := filepath.Join(tmp, "count"), filepath.Join(tmp, "plan.yaml"), filepath.Join(tmp, "out")
			if err := os.WriteFile(plan, []byte(h2cPlan(bin, count, tt.ready)), 0o600); err != nil {
				t.Fatal(err)
			}
			began := time.Now()
			code, _, stderr := pummel(t.Context(), "suite", "-q", plan, "-o", dir)
			if code != tt.code || strings.Count(stderr, "\n") != min(tt.code, 1) || !containsAll(stderr, tt.want) {
				t.Fatalf("exit %d, stderr %q: want %d and one line with %q", code, stderr, tt.code, tt.want)
			}
			if took := time.Since(began); took > 10*time.Second {
				t.Errorf("took %v", took) // a hang, not a slow machine: the plan needs well under a second
			}
			if tt.code == 0 {
				checkH2COperation(t, dir, count)
			}
		})
	}
}

// checkH2COperation checks the run of h2cPlan's operation: 200 requests
// over h2c that passed their checks, as many answered by the server.
func checkH2COperation(t *testing.T, dir, countPath string) {
	t.Helper()
	rep := readResult(t, dir)
	if len(rep.Runs) != 1 || len(rep.Runs[0].Operations) != 1 || rep.Runs[0].Operations[0].Result == nil {
		t.Fatalf("runs %+v", rep.Runs)
	}
	res := rep.Runs[0].Operations[0].Result
	if res.Requests != 200 || res.Errors.Total() != 0 || rep.CheckFailures != 0 || res.Config.Protocol != "h2c" || res.Config.Streams != 4 {
		t.Errorf("%d requests over %s × %d streams, errors %+v, %d check failures: want 200 over h2c × 4, none failed",
			res.Requests, res.Config.Protocol, res.Config.Streams, res.Errors, rep.CheckFailures)
	}
	served, err := os.ReadFile(countPath)
	if err != nil || string(served) != "200" {
		t.Errorf("the server answered %q requests to /load (%v), want 200", served, err)
	}
}

// containsAll says whether s contains every one of subs.
func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
