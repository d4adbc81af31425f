package wholefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteKeepsTheOldFileOnFailure writes over a good result with a
// writer that fails half-way, as a full disk does: the old file must stay
// as it was, and no temporary file be left.
func TestWriteKeepsTheOldFileOnFailure(t *testing.T) {
	tests := []struct {
		name  string
		write func(io.Writer) error
		want  string // the file's content afterwards
		fails bool
	}{
		{"fails half-way", func(w io.Writer) error {
			io.WriteString(w, `{"requests": 1`)
			return errors.New("no space left on device")
		}, `{"requests": 1000}`, true},
		{"succeeds", func(w io.Writer) error {
			_, err := io.WriteString(w, `{"requests": 2000}`)
			return err
		}, `{"requests": 2000}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "suite.json")
			if err := os.WriteFile(path, []byte(`{"requests": 1000}`), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := Write(path, tt.write); (err != nil) != tt.fails {
				t.Errorf("Write: %v", err)
			}
			if got, err := os.ReadFile(path); err != nil || string(got) != tt.want {
				t.Errorf("file holds %q (%v), want %q", got, err, tt.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("%d files in the directory, want only suite.json", len(entries))
			}
		})
	}
}
