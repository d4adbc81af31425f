package proc

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReplacedLogKeepsItsMode: a log that replaces an earlier one keeps
// the earlier one's permissions, as truncating it in place did, whatever
// they were (a log kept private stays private).
func TestReplacedLogKeepsItsMode(t *testing.T) {
	t.Parallel()
	for _, mode := range []os.FileMode{0o600, 0o640, 0o644} {
		t.Run(mode.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "server.log")
			if err := os.WriteFile(path, []byte("earlier\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, mode); err != nil {
				t.Fatal(err)
			}
			l, err := openLog(path)
			if err != nil {
				t.Fatal(err)
			}
			l.started()
			if err := l.f.Close(); err != nil {
				t.Fatal(err)
			}
			info, err := os.Stat(path)
			if err != nil || info.Mode().Perm() != mode || l.path != path {
				t.Fatalf("log at %s: %v, %v; want %s at %s", l.path, info, err, mode, path)
			}
		})
	}
}
