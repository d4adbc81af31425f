package proc

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestDescribeBinary(t *testing.T) {
	content := []byte("#!/bin/sh\necho a server\n")
	sum := sha256.Sum256(content)
	tests := []struct {
		name      string
		git       []string // git commands run in the file's directory, in order
		wantRev   bool
		wantDirty bool
	}{
		{name: "outside git"},
		{name: "committed in a work tree", git: []string{"init -q", "add server", "commit -q -m x"}, wantRev: true},
		{name: "work tree with changes", git: []string{"init -q", "add server", "commit -q -m x", "rm -q --cached server"},
			wantRev: true, wantDirty: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if rev, _ := git(dir, "rev-parse", "HEAD"); len(rev) > 0 {
				t.Skipf("the temporary directory %s is inside a git work tree", dir)
			}
			path := filepath.Join(dir, "server")
			if err := os.WriteFile(path, content, 0o755); err != nil {
				t.Fatal(err)
			}
			runGit(t, dir, tt.git)
			b, err := DescribeBinary(path)
			if err != nil {
				t.Fatal(err)
			}
			if b.Path != path || b.SizeBytes != int64(len(content)) || b.SHA256 != hex.EncodeToString(sum[:]) {
				t.Errorf("DescribeBinary = %+v, want path %s, size %d, sha256 %x", b, path, len(content), sum)
			}
			if (b.GitRevision != "") != tt.wantRev || len(b.GitRevision) > 0 && len(b.GitRevision) != 40 || b.GitDirty != tt.wantDirty {
				t.Errorf("git revision %q, dirty %v; want a revision: %v, dirty %v", b.GitRevision, b.GitDirty, tt.wantRev, tt.wantDirty)
			}
		})
	}
}

func TestDescribeBinaryErrors(t *testing.T) {
	tests := []struct {
		name string
		path func(dir string) string
	}{
		{"missing", func(dir string) string { return filepath.Join(dir, "nothing") }},
		{"not executable", func(dir string) string {
			path := filepath.Join(dir, "data")
			_ = os.WriteFile(path, []byte("x"), 0o644)
			return path
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path(t.TempDir())
			if _, err := DescribeBinary(path); err == nil || !strings.Contains(err.Error(), path) {
				t.Errorf("DescribeBinary(%s) error = %v, want one naming the path", path, err)
			}
		})
	}
}

// runGit runs each git command in dir, skipping the test without git.
func runGit(t *testing.T, dir string, commands []string) {
	t.Helper()
	if len(commands) == 0 {
		return
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	for _, c := range commands {
		args := append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, strings.Fields(c)...)
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", c, err, out)
		}
	}
}
