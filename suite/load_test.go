package suite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/parse"
)

// writePlan writes src to plan.yaml in a fresh directory.
func writePlan(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "plan.yaml")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// minimal is the smallest valid plan; tests append to or edit it.
const minimal = `server:
  command: [./server, --port, "{port}"]
  ready:
    url: http://127.0.0.1:{port}/health
operations:
  - name: get
    url: http://127.0.0.1:{port}/
    load:
      sequential: {warmup: 2, requests: 10}
`

func TestLoadExamplePlan(t *testing.T) {
	s, err := Load(context.Background(), filepath.Join("..", "scripts", "example-plan.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Runs != 2 || strings.Join(s.Modes(), ",") != "fast,slow" || len(s.ops) != 3 {
		t.Fatalf("runs %d, modes %v, %d operations", s.Runs, s.Modes(), len(s.ops))
	}
	empty, created := s.ops[0], s.ops[2]
	if empty.shape != (shape{kind: "sequential", connections: 1, threads: 1, requests: 50, warmupRequests: 10}) {
		t.Errorf("empty's shape %+v", empty.shape)
	}
	if empty.checks.BodyEquals == nil || len(empty.checks.BodyEquals) != 0 {
		t.Errorf("body_equals \"\" must expect an empty body, got %q (nil %v)", empty.checks.BodyEquals, empty.checks.BodyEquals == nil)
	}
	if created.dependsOn != 0 || created.requestMethod() != "POST" || created.body.random != 1024 || created.shape.rate != 200 {
		t.Errorf("created: %+v", created)
	}
}

func TestLoadDefaults(t *testing.T) {
	s, err := Load(context.Background(), writePlan(t, minimal))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "plan" || s.Runs != 1 || strings.Join(s.Modes(), ",") != "default" {
		t.Errorf("name %q, runs %d, modes %v", s.Name, s.Runs, s.Modes())
	}
	op := s.ops[0]
	if op.requestMethod() != "GET" || op.timeout != engine.DefaultTimeout || len(op.checks.Status) != 1 || op.checks.Status[0] != (parse.StatusRange{Lo: 200, Hi: 399}) {
		t.Errorf("operation defaults %+v", op)
	}
	if s.server.readyStatus[0] != (parse.StatusRange{Lo: 200, Hi: 399}) || s.server.settle.Seconds() != 2 {
		t.Errorf("server defaults %+v", s.server)
	}
}

func TestBadPlans(t *testing.T) {
	t.Setenv("PUMMEL_SUITE_SET", "x")
	tests := []struct {
		name string
		src  string
		want string // after "plan.yaml:"
	}{
		{"unknown field", strings.Replace(minimal, "    load:", "    bogus: 1\n    load:", 1), "8: operations[0].bogus: unknown field"},
		{"unknown nested field", strings.Replace(minimal, "{warmup: 2,", "{warmup: 2, conns: 3,", 1), "9: operations[0].load.sequential.conns: unknown field"},
		{"missing command", strings.Replace(minimal, "  command: [./server, --port, \"{port}\"]\n", "", 1), "1: server.command: required"},
		{"empty command", strings.Replace(minimal, "[./server, --port, \"{port}\"]", `""`, 1), "2: server.command: required"},
		{"bad duration", minimal + "    timeout: 5x\n", "10: operations[0].timeout: \"5x\" is not a duration"},
		{"bad settle", strings.Replace(minimal, "  ready:", "  settle: soon\n  ready:", 1), "3: server.settle: \"soon\" is not a duration"},
		{"undefined placeholder", strings.Replace(minimal, "{port}/health", "{prot}/health", 1), "4: server.ready.url: undefined placeholder {prot}"},
		{"unset variable", minimal + "    headers:\n      Authorization: Bearer ${PUMMEL_SUITE_UNSET}\n", "11: operations[0].headers.Authorization: ${PUMMEL_SUITE_UNSET} is not set"},
		{"set variable is fine in the url", strings.Replace(minimal, "{port}/\n", "{port}/?k=${PUMMEL_SUITE_SET}\n", 1), ""},
		{"wrong type", "runs: many\n" + minimal, "1: runs: want a whole number, not text"},
		{"too many runs", "runs: 5000\n" + minimal, "1: runs: 5000"},
		{"syntax", "server:\n  command: x\n   ready: [\n", "2: mapping value is not allowed"},
		{"empty", "\n", "the plan is empty"},
		{"no ready url", strings.Replace(minimal, "    url: http://127.0.0.1:{port}/health\n", "    timeout: 1s\n", 1), "3: server.ready.url: required"},
		{"no operations", minimal[:strings.Index(minimal, "operations:")], "operations: required"},
		{"two load shapes", minimal + "      closed: {connections: 1, duration: 1s}\n", "8: operations[0].load: give exactly one"},
		{"no load", strings.Replace(minimal, "    load:\n      sequential: {warmup: 2, requests: 10}\n", "", 1), "6: operations[0].load: give exactly one"},
		{"no requests", strings.Replace(minimal, "requests: 10", "requests: 0", 1), "9: operations[0].load.sequential.requests: want at least 1"},
		{"engine limit", strings.Replace(minimal, "sequential: {warmup: 2, requests: 10}", "closed: {connections: 2, threads: 3, duration: 1s}", 1), "8: operations[0].load: threads: 3"},
		{"open without duration", strings.Replace(minimal, "sequential: {warmup: 2, requests: 10}", "open: {rate: 5}", 1), "9: operations[0].load.open.duration: required"},
		{"bad status", minimal + "    checks: {status: 2xy}\n", "10: operations[0].checks.status: \"2xy\" is not a status"},
		{"not a url", strings.Replace(minimal, "url: http://127.0.0.1:{port}/\n", "url: ftp://x/\n", 1), "7: operations[0].url: \"ftp://x/\" is not an http"},
		{"duplicate operation", minimal + "  - name: get\n    url: http://127.0.0.1:{port}/\n    load: {sequential: {requests: 1}}\n", "10: operations[1].name: \"get\" is used twice"},
		{"later dependency", strings.Replace(minimal, "    load:", "    depends_on: put\n    load:", 1), "8: operations[0].depends_on: \"put\" is not an earlier operation"},
		{"two bodies", minimal + "    body: x\n    body_random: 3\n", "10: operations[0].body: give one of"},
		{"missing body file", minimal + "    body_file: nope.bin\n", "10: operations[0].body_file:"},
		{"endless body file", minimal + "    body_file: /dev/zero\n", "10: operations[0].body_file: /dev/zero holds more than 64 MiB"},
		{"bad mode name", minimal + "modes:\n  - name: a/b\n", "11: modes[0].name: \"a/b\""},
		{"bad threshold", minimal + "    thresholds: [p99<20]\n", "10: operations[0].thresholds[0]: \"p99<20\": bound \"20\" needs a unit"},
		{"run figure as a threshold", minimal + "    thresholds: [errors==0, startup<1s]\n", "10: operations[0].thresholds[1]: \"startup<1s\": startup is a figure of each run"},
		{"streams without http2", minimal + "    streams: 16\n", "10: operations[0].streams: streams are HTTP/2's and HTTP/3's; add http2: true"},
		{"streams with http2", minimal + "    http2: true\n    streams: 16\n", ""},
		{"http3 over http", minimal + "    http3: true\n    streams: 16\n", "10: operations[0].http3: HTTP/3 runs over QUIC, which carries TLS: give an https:// URL"},
		{"http2 and http3", minimal + "    http2: true\n    http3: true\n", "11: operations[0].http3: give http2: true or http3: true, not both"},
		{"too many streams", minimal + "    http2: true\n    streams: 2000\n", "11: operations[0].streams: 2000, need between 1 and 1024"},
		{"rate below one request names the field", strings.Replace(minimal, "sequential: {warmup: 2, requests: 10}", "open: {rate: 0.5, duration: 1s}", 1),
			"8: operations[0].load: rate: 0.5 requests/s for 1s is less than one request; lengthen duration"},
		{"ready http2 not a bool", strings.Replace(minimal, "  ready:\n", "  ready:\n    http2: yes\n", 1), "4: server.ready.http2: want true or false, not text"},
		{"ready http2 a list", strings.Replace(minimal, "  ready:\n", "  ready:\n    http2: [true]\n", 1), "4: server.ready.http2: want true or false, not a list"},
		{"mode placeholder", minimal + "modes:\n  - name: m\n    args: [\"{nope}\"]\n", "12: modes[0].args[0]: undefined placeholder {nope}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writePlan(t, tt.src)
			_, err := Load(context.Background(), path)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				return
			}
			var perr *PlanError
			if !errors.As(err, &perr) {
				t.Fatalf("Load = %v, want a *PlanError", err)
			}
			msg := strings.TrimPrefix(err.Error(), path+":")
			if !strings.HasPrefix(strings.TrimSpace(msg), tt.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q, want one line starting %q", msg, tt.want)
			}
		})
	}
}
