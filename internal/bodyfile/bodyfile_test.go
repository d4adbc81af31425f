package bodyfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// hang bounds a Read that should end by itself: far longer than any
// machine needs, so that only a Read that waits for ever fails.
const hang = 30 * time.Second

func TestReadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := []struct {
		name    string
		path    string
		limit   int64
		want    string
		wantErr error
	}{
		{"under the limit", write("small", "abc"), 4, "abc", nil},
		{"exactly the limit", write("exact", "abcd"), 4, "abcd", nil},
		{"empty", write("empty", ""), 4, "", nil},
		{"over the limit", write("big", "abcde"), 4, "", ErrTooLarge},
		{"endless", "/dev/zero", 1 << 10, "", ErrTooLarge},
		{"missing", filepath.Join(dir, "missing"), 4, "", fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Read(t.Context(), tt.path, tt.limit, hang)
			if string(got) != tt.want || !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Errorf("Read = %q, %v; want %q, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}
