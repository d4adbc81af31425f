package proc

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/pummel-dev/pummel/stats"
)

// gitTimeout bounds each git command DescribeBinary runs: a huge or
// networked work tree must not hold up the run.
const gitTimeout = 5 * time.Second

// DescribeBinary returns the facts that identify the executable at path
// (looked up on $PATH as exec.LookPath does): its absolute path, size and
// SHA-256 and, when it lives in a git work tree, the revision checked out
// and whether tracked files were changed. Without git, or outside a work
// tree, the git fields are empty: that is not an error.
func DescribeBinary(path string) (stats.Binary, error) {
	found, err := exec.LookPath(path)
	if err != nil {
		return stats.Binary{}, fmt.Errorf("describing the server binary: %w", err)
	}
	if abs, err := filepath.Abs(found); err == nil {
		found = abs
	}
	b := stats.Binary{Path: found}
	if b.SizeBytes, b.SHA256, err = hashFile(found); err != nil {
		return stats.Binary{}, fmt.Errorf("describing the server binary: %w", err)
	}
	b.GitRevision, b.GitDirty = gitState(filepath.Dir(found))
	return b, nil
}

// hashFile returns a file's size and hex SHA-256.
func hashFile(path string) (int64, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", err
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// gitState returns HEAD of the git work tree holding dir and whether its
// tracked files have uncommitted changes, or "" and false when git is
// missing or dir is not in a work tree. Untracked files do not count as
// dirty: the freshly built binary itself is often one.
func gitState(dir string) (string, bool) {
	rev, err := git(dir, "rev-parse", "HEAD")
	if err != nil || len(rev) == 0 {
		return "", false
	}
	status, err := git(dir, "status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return string(rev), false
	}
	return string(rev), len(status) > 0
}

// git runs a git command in dir and returns its trimmed output.
func git(dir string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	return bytes.TrimSpace(out), err
}

// DescribeServer describes the server's executable in the command line
// argv, looking past wrappers (DescribeBinary of ServerBinary); i is the
// argument that names it.
func DescribeServer(argv []string) (b stats.Binary, i int, err error) {
	i = slices.Index(argv, ServerBinary(argv))
	b, err = DescribeBinary(argv[i])
	return b, i, err
}
