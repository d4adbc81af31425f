package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

// targetURL starts the built-in target on loopback and returns its URL.
func targetURL(t *testing.T) string {
	return "http://" + fixture.Builtin(t) + "/"
}

// pummel runs the CLI in-process and returns its exit code and outputs.
func pummel(ctx context.Context, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(ctx, args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestBadInputExitsTwoWithOneLine(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // must appear in the one line
	}{
		{"no URL", nil, "URL"},
		{"zero connections", []string{"-c", "0", "http://127.0.0.1:1/"}, "-c/--connections"},
		{"bad count", []string{"-c", "lots", "http://127.0.0.1:1/"}, "-c/--connections"},
		{"threads over connections", []string{"-t", "8", "-c", "2", "http://127.0.0.1:1/"}, "-t/--threads"},
		{"bad duration", []string{"-d", "5x", "http://127.0.0.1:1/"}, "-d/--duration"},
		{"bad requests", []string{"-n", "-5", "http://127.0.0.1:1/"}, "-n"},
		{"bad timeout", []string{"--timeout", "0", "http://127.0.0.1:1/"}, "--timeout: needs a positive duration"},
		{"zero duration", []string{"-d", "0s", "http://127.0.0.1:1/"}, "-d/--duration: needs a positive duration"},
		{"missing body file", []string{"--body-file", "/nonexistent/body", "http://127.0.0.1:1/"}, "--body-file"},
		{"unknown flag", []string{"--bogus", "http://127.0.0.1:1/"}, "--bogus"},
		{"unknown short flag", []string{"-Z", "http://127.0.0.1:1/"}, "-Z"},
		{"bad scheme", []string{"ftp://127.0.0.1/"}, "URL"},
		{"no host", []string{"http:///path"}, "URL"},
		{"bad header", []string{"-H", "novalue", "http://127.0.0.1:1/"}, "-H/--header"},
		{"bad status list", []string{"--expect-status", "20x", "http://127.0.0.1:1/"}, "--expect-status"},
		{"bad format", []string{"--format", "xml", "http://127.0.0.1:1/"}, "--format"},
		{"bad output extension", []string{"-o", "r.csv", "http://127.0.0.1:1/"}, "-o/--output"},
		{"streams without --http2", []string{"--streams", "16", "http://127.0.0.1:1/"}, "--streams: streams are HTTP/2's and HTTP/3's (add --http2)"},
		{"zero streams", []string{"--http2", "--streams", "0", "http://127.0.0.1:1/"}, "--streams"},
		{"streams say what HTTP/1.1 does", []string{"--streams", "16", "http://127.0.0.1:1/"},
			"--streams: streams are HTTP/2's and HTTP/3's (add --http2); HTTP/1.1 sends several requests at once with --pipeline"},
		{"HTTP/2 without keep-alive names the flag to drop", []string{"--http2", "--no-keepalive", "http://127.0.0.1:1/"},
			"--http2: HTTP/2 connections are kept alive; drop --no-keepalive"},
		{"rate below one request names -d", []string{"-R", "0.5", "-d", "1s", "http://127.0.0.1:1/"},
			"-R/--rate: 0.5 requests/s for 1s is less than one request; lengthen -d"},
		{"rate with -n names -n", []string{"-R", "10", "-n", "5", "http://127.0.0.1:1/"}, "-R/--rate: -n does not apply to an open-loop run"},
		{"shard names -c", []string{"--shard", "0/4", "-c", "2", "http://127.0.0.1:1/"},
			"--shard: 2 connections cannot be shared by 4 parts; raise -c to at least 4"},
		{"HTTP/2 pipelined", []string{"--http2", "--pipeline", "4", "http://127.0.0.1:1/"}, "--pipeline: HTTP/2 does not pipeline"},
		{"HTTP/3 over http://", []string{"--http3", "http://127.0.0.1:1/"}, "--http3: HTTP/3 runs over QUIC, which carries TLS: give an https:// URL"},
		{"HTTP/2 and HTTP/3", []string{"--http2", "--http3", "https://127.0.0.1:1/"}, "--http3: give --http2 or --http3, not both"},
		{"HTTP/3 with an engine", []string{"--http3", "--engine", "loop", "https://127.0.0.1:1/"}, "--engine: HTTP/3 runs on its own QUIC transport; drop --engine"},
		{"HTTP/3 pipelined", []string{"--http3", "--pipeline", "4", "https://127.0.0.1:1/"}, "--pipeline: HTTP/3 does not pipeline"},
		{"HTTP/3 over a Unix socket", []string{"--http3", "--unix", "/tmp/x.sock", "https://127.0.0.1:1/"}, "--http3: HTTP/3 runs over UDP, not a Unix socket"},
		{"HTTP/2 without keep-alive", []string{"--http2", "--no-keepalive", "http://127.0.0.1:1/"}, "--http2: HTTP/2 connections are kept alive"},
		{"two URLs", []string{"http://127.0.0.1:1/", "http://127.0.0.1:2/"}, "unexpected argument"},
		{"body and body file", []string{"-b", "x", "--body-file", "f", "http://127.0.0.1:1/"}, "--body-file"},
		{"pipeline zero", []string{"--pipeline", "0", "http://127.0.0.1:1/"}, "--pipeline"},
		{"pipeline without keep-alive", []string{"--pipeline", "4", "--no-keepalive", "http://127.0.0.1:1/"}, "--pipeline"},
		{"bad rate", []string{"-R", "fast", "http://127.0.0.1:1/"}, "-R/--rate"},
		{"zero rate", []string{"-R", "10,0", "http://127.0.0.1:1/"}, "-R/--rate"},
		{"rate with -n", []string{"-R", "10", "-n", "5", "http://127.0.0.1:1/"}, "-R/--rate"},
		{"warm-up rate without -R", []string{"--warmup-rate", "5", "http://127.0.0.1:1/"}, "--warmup-rate"},
		{"warm-up requests without -n", []string{"--warmup-requests", "5", "http://127.0.0.1:1/"}, "--warmup-requests"},
		{"bad warm-up", []string{"--warmup", "soon", "http://127.0.0.1:1/"}, "--warmup"},
		{"cert without key", []string{"--cert", "c.pem", "https://127.0.0.1:1/"}, "--cert"},
		{"method holding a request line", []string{"-m", "GET /x HTTP/1.1", "http://127.0.0.1:1/"}, "-m/--method"},
		{"method with a line break", []string{"-m", "GET\r\n", "http://127.0.0.1:1/"}, "-m/--method"},
		{"chunked request", []string{"-b", "x", "-H", "Transfer-Encoding: chunked", "http://127.0.0.1:1/"}, "-H/--header"},
		{"header value with a line break", []string{"-H", "X-A: b\r\nX-Injected: 1", "http://127.0.0.1:1/"}, "-H/--header"},
		{"header name with a separator", []string{"-H", "X(a): b", "http://127.0.0.1:1/"}, "-H/--header"},
		{"content length other than the body", []string{"-b", "abc", "-H", "Content-Length: 9", "http://127.0.0.1:1/"}, "-H/--header"},
		{"content type with a line break", []string{"-T", "text/plain\nX: y", "http://127.0.0.1:1/"}, "-T/--content-type"},
		{"space in the URL path", []string{"http://127.0.0.1:1/a b"}, "URL"},
		{"space in the URL query", []string{"http://127.0.0.1:1/?q=a b"}, "URL"},
		{"control character in the URL", []string{"http://127.0.0.1:1/\x7f"}, "URL"},
		{"bad progress", []string{"--progress", "sometimes", "http://127.0.0.1:1/"}, "--progress"},
		{"quiet and progress always", []string{"-q", "--progress", "always", "http://127.0.0.1:1/"}, "-q/--quiet"},
		{"bad threshold", []string{"--threshold", "p99<20", "http://127.0.0.1:1/"}, `--threshold "p99<20"`},
		{"threshold on no figure", []string{"--threshold", "p98<20ms", "http://127.0.0.1:1/"}, `--threshold "p98<20ms"`},
		{"server threshold with no server", []string{"--threshold", "server_rss_peak<1GiB", "http://127.0.0.1:1/"}, "--pid or --exec"},
		{"startup threshold without --exec", []string{"--threshold", "startup<1s", "--pid", "1", "http://127.0.0.1:1/"}, "needs --exec"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := pummel(t.Context(), tt.args...)
			if code != exitUsage {
				t.Errorf("exit code %d, want %d (stderr %q)", code, exitUsage, stderr)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q: want one line naming %q", stderr, tt.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
}

func TestUnreachableTargetExitsOne(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	code, _, stderr := pummel(t.Context(), "-c", "2", "-d", "1", "http://"+addr+"/")
	if code != exitFailed || !strings.Contains(stderr, "refused") {
		t.Errorf("exit %d, stderr %q: want 1 and a refused connection", code, stderr)
	}
}

func TestWrkCommandLine(t *testing.T) {
	url := targetURL(t)
	code, stdout, stderr := pummel(t.Context(), "-t2", "-c4", "-d300ms", url, "--latency")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"Running 300ms test @ " + url, "  2 threads and 4 connections", "Thread Stats",
		"    Latency ", "    Req/Sec ", "Latency Distribution", "     99%", " requests in ",
		"Requests/sec:", "Transfer/sec:", "Status codes: 200 x ",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

func TestAbCommandLineWritesJSONAndMarkdown(t *testing.T) {
	url := targetURL(t)
	dir := t.TempDir()
	jsonPath, mdPath := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.md")
	code, stdout, stderr := pummel(t.Context(), "-k", "-c", "8", "-n", "1k", "-H", "Authorization: Bearer s3cr3t-value",
		url+"api", "-o", jsonPath, "--output="+mdPath, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res stats.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("stdout is not JSON: %v", err)
	}
	// The built-in target answers unknown paths with 404: a status error each.
	if res.Requests != 1000 || res.Status["404"] != 1000 || res.Errors.Status != 1000 {
		t.Errorf("requests %d, status %v, status errors %d: want exactly 1000 404s", res.Requests, res.Status, res.Errors.Status)
	}
	if res.Config.Connections != 8 || res.Config.Requests != 1000 || !res.Config.KeepAlive {
		t.Errorf("config %+v does not echo -k -c 8 -n 1k", res.Config)
	}
	for _, path := range []string{jsonPath, mdPath} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("s3cr3t-value")) {
			t.Errorf("%s shows the Authorization header's value", path)
		}
	}
	if strings.Contains(stdout, "s3cr3t-value") {
		t.Error("stdout shows the Authorization header's value")
	}
}

func TestShowSecrets(t *testing.T) {
	url := strings.Replace(targetURL(t), "http://", "http://us3r-name:pa55word@", 1)
	args := []string{"-c", "1", "-n", "5", "-H", "X-Api-Key: k3y-value", "--format", "json", url}
	_, stdout, _ := pummel(t.Context(), args...)
	if strings.Contains(stdout, "k3y-value") || strings.Contains(stdout, "pa55word") || strings.Contains(stdout, "us3r-name") {
		t.Errorf("secrets printed without --show-secrets:\n%s", stdout)
	}
	_, stdout, _ = pummel(t.Context(), append(args, "--show-secrets")...)
	if !strings.Contains(stdout, "k3y-value") || !strings.Contains(stdout, "us3r-name:pa55word") {
		t.Errorf("--show-secrets hid the secrets:\n%s", stdout)
	}
}

func TestInterruptPrintsPartialResultsAndExits130(t *testing.T) {
	url := targetURL(t)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	began := time.Now()
	code, stdout, _ := pummel(ctx, "-c", "2", "-d", "1m", url)
	if code != exitInterrupted {
		t.Errorf("exit %d, want %d", code, exitInterrupted)
	}
	if !strings.Contains(stdout, "Requests/sec:") || !strings.Contains(stdout, "Interrupted") {
		t.Errorf("no partial results:\n%s", stdout)
	}
	if time.Since(began) > 30*time.Second {
		t.Errorf("interrupt took %v to stop a 1m run", time.Since(began))
	}
}

func TestDemo(t *testing.T) {
	code, stdout, stderr := pummel(t.Context(), "demo", "-d", "200ms", "-c", "2")
	if code != 0 || !strings.Contains(stdout, "Requests/sec:") || !strings.Contains(stdout, "Latency Distribution") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

func TestOpenLoopCommandLine(t *testing.T) {
	url := targetURL(t)
	code, stdout, stderr := pummel(t.Context(), "-R", "100,200", "-d", "300ms", "--warmup", "100ms", "-c", "4", url, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res stats.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Stages) != 2 || res.Stages[0].Requests != 30 || res.Stages[1].Requests != 60 || res.Requests != 90 {
		t.Errorf("stages %d, requests %d: want 30 then 60", len(res.Stages), res.Requests)
	}
	if res.LatencyUncorrectedHistogram == "" || res.Config.WarmupS != 0.1 || len(res.Config.Rates) != 2 {
		t.Errorf("open-loop fields missing: config %+v", res.Config)
	}
	_, text, _ := pummel(t.Context(), "-R", "50", "-d", "200ms", "-c", "2", url)
	for _, want := range []string{"Requests/sec:", "Stage 1 of 1: 50 requests/s", "Requests      [total, rate, throughput]", "Success       [ratio]", "Error Set:"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

func TestSubcommandFlagsTakeTheirValues(t *testing.T) {
	app := newApp(&commandLine{}, io.Discard, io.Discard)
	args := []string{"serve", "--addr", "127.0.0.1:0", "--delay", "2ms"}
	got := normalizeArgs(scanArgs(args, specOf(flagsFor(app, args)), commandNames(app)))
	if strings.Join(got, " ") != "serve --addr 127.0.0.1:0 --delay 2ms" {
		t.Errorf("normalized to %q: serve's own flags must keep their values", got)
	}
}
