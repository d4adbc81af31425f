package proc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/stats"
)

func TestPerRequest(t *testing.T) {
	tests := []struct {
		name     string
		cpu      float64
		requests int64
		want     float64
	}{
		{"2s over 1M requests", 2, 1_000_000, 2},
		{"no requests", 2, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := PerRequest(stats.ServerUsage{PID: 1, CPUSeconds: tt.cpu}, tt.requests)
			if u.CPUUsPerRequest != tt.want || u.PID != 1 || u.CPUSeconds != tt.cpu {
				t.Errorf("PerRequest = %+v, want CPUUsPerRequest %g and the rest kept", u, tt.want)
			}
		})
	}
}

func TestLogTail(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		want     string // in the tail
		wantNot  string // not in it
		maxBytes int
	}{
		{name: "empty", content: "", want: "is empty"},
		{name: "last lines only", content: strings.Repeat("early\n", 50) + "a\n\nb\n" + strings.Repeat("late\n", 9),
			want: `"b" | "late"`, wantNot: "early"},
		{name: "long line cut", content: strings.Repeat("x", 10_000) + "\n", want: "x…", maxBytes: 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "server.log")
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			got := logTail(path, logTailLines)
			if !strings.Contains(got, tt.want) || (tt.wantNot != "" && strings.Contains(got, tt.wantNot)) {
				t.Errorf("logTail = %q, want %q and not %q", got, tt.want, tt.wantNot)
			}
			if tt.maxBytes > 0 && len(got) > tt.maxBytes {
				t.Errorf("logTail is %d bytes, want at most %d", len(got), tt.maxBytes)
			}
		})
	}
}
