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

// TestReadyProtocol pins what the readiness probes speak: as
// server.ready.http2 or .http3 says, or else what every operation speaks.
func TestReadyProtocol(t *testing.T) {
	const second = "  - name: other\n    url: https://127.0.0.1:{port}/other\n    load: {sequential: {requests: 1}}\n"
	h1, h2, h3 := engine.HTTP1, engine.HTTP2, engine.HTTP3
	tests := []struct {
		name  string
		ready string             // server.ready's lines, "" for none
		ops   [2]engine.Protocol // each operation's
		want  engine.Protocol
		err   string
	}{
		{"no operation http2", "", [2]engine.Protocol{h1, h1}, h1, ""},
		{"one of two http2", "", [2]engine.Protocol{h2, h1}, h1, ""},
		{"every operation http2", "", [2]engine.Protocol{h2, h2}, h2, ""},
		{"every operation http3", "", [2]engine.Protocol{h3, h3}, h3, ""},
		{"http2 and http3 operations", "", [2]engine.Protocol{h2, h3}, h1, ""},
		{"null is unset", "http2: null", [2]engine.Protocol{h2, h2}, h2, ""},
		{"false over every operation http2", "http2: false", [2]engine.Protocol{h2, h2}, h1, ""},
		{"false over every operation http3", "http3: false", [2]engine.Protocol{h3, h3}, h1, ""},
		{"true over none", "http2: true", [2]engine.Protocol{h1, h1}, h2, ""},
		{"http3 true over none", "http3: true", [2]engine.Protocol{h1, h1}, h3, ""},
		{"http3 true, http2 false", "http2: false\n    http3: true", [2]engine.Protocol{h1, h1}, h3, ""},
		{"both true", "http2: true\n    http3: true", [2]engine.Protocol{h1, h1}, h1, "server.ready.http3: give http2 or http3, not both"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(minimal+second, "url: http://127.0.0.1:{port}/\n", "url: https://127.0.0.1:{port}/\n", 1)
			if tt.ready != "" {
				src = strings.Replace(src, "  ready:\n", "  ready:\n    "+tt.ready+"\n", 1)
			}
			src = strings.Replace(src, "    load:\n", protocolLine(tt.ops[0])+"    load:\n", 1)
			src = strings.Replace(src, "/other\n", "/other\n"+protocolLine(tt.ops[1]), 1)
			s, err := Load(context.Background(), writePlan(t, src))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := [2]engine.Protocol{s.ops[0].protocol, s.ops[1].protocol}; got != tt.ops {
				t.Fatalf("operations' protocols %v, want %v", got, tt.ops)
			}
			spec, err := (&runner{suite: s, x: &expander{port: "8080", tmpdir: t.TempDir(), lookupEnv: os.LookupEnv}}).spec(mode{}, "")
			want := map[engine.Protocol]proc.ReadyProtocol{h1: proc.ReadyHTTP1, h2: proc.ReadyHTTP2, h3: proc.ReadyHTTP3}[tt.want]
			if s.server.readyProtocol != tt.want || err != nil || spec.ReadyProtocol != want {
				t.Errorf("probes speak %v (spec %v, %v), want %v", s.server.readyProtocol, spec.ReadyProtocol, err, tt.want)
			}
		})
	}
}

// protocolLine is an operation's line that makes it speak p.
func protocolLine(p engine.Protocol) string {
	switch p {
	case engine.HTTP2:
		return "    http2: true\n"
	case engine.HTTP3:
		return "    http3: true\n"
	}
	return ""
}

// TestNotReadyHint: a server that never got ready is told how to change
// the protocol its probes spoke (the error names it); another failure
// gets no hint.
func TestNotReadyHint(t *testing.T) {
	notReady := fmt.Errorf("waiting: %w", proc.ErrNotReady)
	tests := []struct {
		err  error
		p    engine.Protocol
		want string
	}{
		{notReady, engine.HTTP1, "server.ready.http2 or .http3: true"},
		{notReady, engine.HTTP2, "server.ready.http2 and .http3: false"},
		{notReady, engine.HTTP3, "server.ready.http2 and .http3: false"},
		{errors.New("exec: permission denied"), engine.HTTP2, ""},
		{errors.New("exec: permission denied"), engine.HTTP1, ""},
	}
	for _, tt := range tests {
		got := notReadyHint(tt.err, tt.p)
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("notReadyHint(%v, %v) = %q, want %q", tt.err, tt.p, got, tt.want)
		}
	}
}
