package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// savedPart is one small part of a sharded load as pummel --format json writes it.
func savedPart(t *testing.T, shard int) string {
	t.Helper()
	r := stats.Merge([]*record.Recorder{record.New()}, 0, nil)
	r.Config.URL = "http://127.0.0.1:8080/"
	r.Shard = &stats.Shard{Index: shard, Count: 2}
	var b bytes.Buffer
	if err := stats.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestReadResultsFromAStream(t *testing.T) {
	a, b := savedPart(t, 0), savedPart(t, 1)
	after := strings.Count(a, "\n") + 1 // the line after a
	tests := []struct {
		name      string
		stdin     string
		want      int    // results read; 0: refused
		wantError string // in the one line, when refused
		wantNote  string // passed on to stderr
	}{
		{"one result", a, 1, "", ""},
		{"two results, as kubectl logs prints two pods", a + b, 2, "", ""},
		{"without a line break between them", strings.TrimSpace(a) + strings.TrimSpace(b), 2, "", ""},
		{"a failed part's message between them", a + "pummel: not one request was answered (errors: connect 3)\n" + b, 2, "",
			fmt.Sprintf("pummel: standard input: line %d: pummel: not one request was answered (errors: connect 3)\n", after)},
		{"a header on stdout", "Running 10s test @ http://127.0.0.1:8080/\n" + a, 0, `standard input: line 1: "Running 10s test`, ""},
		{"a result cut short", a + b[:len(b)/2], 0, fmt.Sprintf("standard input (result 2): line %d:", after), ""},
		{"nothing", "\n", 0, "standard input: holds no result", ""},
		{"not a result", a + `{"requests": -1, "config": {"url": "http://h/"}}`, 0, "standard input (result 2): not a pummel result: requests", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var notes bytes.Buffer
			rs, names, _, err := readResults([]string{"-"}, nil, strings.NewReader(tt.stdin), &notes)
			if tt.want == 0 {
				if err == nil || !strings.Contains(err.Error(), tt.wantError) || strings.Contains(err.Error(), "\n") {
					t.Errorf("err %v, want one line naming %q", err, tt.wantError)
				}
				return
			}
			if err != nil || len(rs) != tt.want {
				t.Fatalf("%d results, err %v; want %d", len(rs), err, tt.want)
			}
			if names[0] != "stdin" || len(names) > 1 && names[1] != "stdin-2" {
				t.Errorf("names %q, want stdin, stdin-2…", names)
			}
			if notes.String() != tt.wantNote {
				t.Errorf("notes %q, want %q", notes.String(), tt.wantNote)
			}
		})
	}
}
