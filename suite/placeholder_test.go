package suite

import (
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	env := map[string]string{"TOKEN": "s3cret", "EMPTY": ""}
	x := &expander{port: "8080", tmpdir: "/tmp/run1", lookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}
	tests := []struct {
		in, want, err string
	}{
		{"http://127.0.0.1:{port}/", "http://127.0.0.1:8080/", ""},
		{"--data={tmpdir}/db --port {port}", "--data=/tmp/run1/db --port 8080", ""},
		{"Bearer ${TOKEN}", "Bearer s3cret", ""},
		{"${EMPTY}x", "x", ""},
		{`{"a": {"b": [1, {}]}}`, `{"a": {"b": [1, {}]}}`, ""},
		{"{} and { port } and {Port} and {1}", "{} and { port } and {Port} and {1}", ""},
		{"${1X} and $port and ${", "${1X} and $port and ${", ""},
		{"{port}{port}", "80808080", ""},
		{"{prot}", "", "undefined placeholder {prot}"},
		{"${MISSING}", "", "${MISSING} is not set"},
	}
	for _, tt := range tests {
		got, err := x.expand(tt.in)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("expand(%q) error %v, want %q", tt.in, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("expand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if got := x.scrub("GET /?k=s3cret failed"); got != "GET /?k=REDACTED failed" {
		t.Errorf("scrub: %q", got)
	}
}
