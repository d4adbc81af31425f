package suite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/proc"
)

// TestReadyHTTP2 pins when the readiness probes speak HTTP/2: as
// server.ready.http2 says, or else when every operation does.
func TestReadyHTTP2(t *testing.T) {
	const second = "  - name: other\n    url: http://127.0.0.1:{port}/other\n    load: {sequential: {requests: 1}}\n"
	tests := []struct {
		name  string
		ready string // server.ready.http2's line, "" for none
		ops   []bool // each operation's http2
		want  bool
	}{
		{"no operation http2", "", []bool{false, false}, false},
		{"one of two http2", "", []bool{true, false}, false},
		{"every operation http2", "", []bool{true, true}, true},
		{"null is unset", "http2: null", []bool{true, true}, true},
		{"false over every operation http2", "http2: false", []bool{true, true}, false},
		{"true over none", "http2: true", []bool{false, false}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := minimal + second
			if tt.ready != "" {
				src = strings.Replace(src, "  ready:\n", "  ready:\n    "+tt.ready+"\n", 1)
			}
			if tt.ops[0] {
				src = strings.Replace(src, "    load:\n", "    http2: true\n    load:\n", 1)
			}
			if tt.ops[1] {
				src = strings.Replace(src, "/other\n", "/other\n    http2: true\n", 1)
			}
			s, err := Load(context.Background(), writePlan(t, src))
			if err != nil {
				t.Fatal(err)
			}
			if got := []engine.Protocol{s.ops[0].protocol, s.ops[1].protocol}; got[0] != protocol(tt.ops[0], false) || got[1] != protocol(tt.ops[1], false) {
				t.Fatalf("operations' protocols %v, want HTTP/2 for %v", got, tt.ops)
			}
			if s.server.readyHTTP2 != tt.want {
				t.Errorf("probes speak HTTP/2: %v, want %v", s.server.readyHTTP2, tt.want)
			}
			if spec, err := (&runner{suite: s, x: &expander{port: "8080", tmpdir: t.TempDir(), lookupEnv: os.LookupEnv}}).spec(mode{}, ""); err != nil || spec.ReadyHTTP2 != tt.want {
				t.Errorf("proc.Spec.ReadyHTTP2 %v (%v), want %v", spec.ReadyHTTP2, err, tt.want)
			}
		})
	}
}

// TestNotReadyHint: a server that never got ready is told which protocol
// the probes spoke and how to change it; another failure gets no hint.
func TestNotReadyHint(t *testing.T) {
	notReady := fmt.Errorf("waiting: %w", proc.ErrNotReady)
	tests := []struct {
		err  error
		h2   bool
		want string
	}{
		{notReady, false, "probed over HTTP/1.1; server.ready.http2: true"},
		{notReady, true, "probed over HTTP/2; server.ready.http2: false"},
		{errors.New("exec: permission denied"), true, ""},
		{errors.New("exec: permission denied"), false, ""},
	}
	for _, tt := range tests {
		got := notReadyHint(tt.err, tt.h2)
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("notReadyHint(%v, %v) = %q, want %q", tt.err, tt.h2, got, tt.want)
		}
	}
}
