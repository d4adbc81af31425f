package proc

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

const (
	// logTailLines is how many of the server's last log lines an error
	// quotes.
	logTailLines = 10
	// logTailBytes bounds how much of the log end is read for them.
	logTailBytes = 8 << 10
	// logLineBytes bounds each quoted line, so one huge line (a stack
	// trace on one line, a binary dump) cannot flood the error.
	logLineBytes = 240
)

// serverLog is the file a server's output goes to.
type serverLog struct {
	f       *os.File // what the server writes to
	path    string   // where the log is read once the server started
	pending string   // a new file to rename onto path when the server starts; "" if none
	created bool     // the file was made for this start: a failed start removes it
}

// openLog opens the server's log: a new temporary file for path "", a new
// file for a path where none is. An earlier log at path is replaced only
// when the server starts (each run has its own log, as with a shell's >):
// the output goes to a new file beside it that started renames onto it,
// so a start that fails leaves the earlier log as it was. A path that is
// not a regular file (a FIFO, /dev/stderr) is written in place, and so is
// one beside which no file can be made (truncated, as nothing else can).
func openLog(path string) (*serverLog, error) {
	if path == "" {
		f, err := os.CreateTemp("", "pummel-server-*.log")
		if err != nil {
			return nil, fmt.Errorf("creating the server log: %w", err)
		}
		return &serverLog{f: f, path: f.Name(), created: true}, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err == nil {
		return &serverLog{f: f, path: path, created: true}, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("opening the server log: %w", err)
	}
	if l := replacement(path); l != nil {
		return l, nil
	}
	if f, err = os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0); err != nil {
		return nil, fmt.Errorf("opening the server log: %w", err)
	}
	return &serverLog{f: f, path: path}, nil
}

// replacement is a new file beside the regular file at path (through
// symbolic links), to rename onto it when the server starts; nil if path
// is not a regular file or no file can be made beside it.
func replacement(path string) *serverLog {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil
	}
	info, err := os.Stat(target)
	if err != nil || !info.Mode().IsRegular() {
		return nil
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".pummel-*")
	if err != nil {
		return nil
	}
	if err := f.Chmod(info.Mode().Perm()); err != nil { // the earlier log's, as truncating it kept
		f.Close()           //nolint:errcheck // the file is removed
		os.Remove(f.Name()) //nolint:errcheck // best effort
		return nil
	}
	return &serverLog{f: f, path: target, pending: f.Name(), created: true}
}

// started puts the log in its place once the server started, replacing
// an earlier log at its path. If that cannot be done the log stays where
// it was written, and its path says so.
func (l *serverLog) started() {
	if l.pending != "" && os.Rename(l.pending, l.path) != nil {
		l.path = l.pending
	}
}

// abandon removes the log made for a start that failed; an earlier log
// at its path is left as it was.
func (l *serverLog) abandon() {
	if l.created {
		os.Remove(l.f.Name()) //nolint:errcheck // best effort: the start's error is the news
	}
}

// TemporaryLog reports whether the server's log is a temporary file that
// Launch made (Spec.LogPath ""), rather than one the user named.
func (p *Process) TemporaryLog() bool { return p.tempLog }

// RemoveLog removes the server's log if it is a temporary file, for a run
// that went well: nobody needs it, and a temporary directory should not
// fill with them. A log the user named is kept. Call it after Stop.
func (p *Process) RemoveLog() error {
	if !p.tempLog {
		return nil
	}
	return os.Remove(p.logPath)
}

// logTail describes the end of the server's log on one line: `log
// /tmp/x.log ends: "line" | "line"`, at most n lines.
func logTail(path string, n int) string {
	lines, err := lastLines(path, n)
	switch {
	case err != nil:
		return fmt.Sprintf("log %s unreadable: %v", path, err)
	case len(lines) == 0:
		return fmt.Sprintf("log %s is empty", path)
	}
	quoted := make([]string, len(lines))
	for i, line := range lines {
		quoted[i] = fmt.Sprintf("%q", line)
	}
	return fmt.Sprintf("log %s ends: %s", path, strings.Join(quoted, " | "))
}

// lastLines returns the last n non-blank lines of a file, each cut to
// logLineBytes, reading at most its last logTailBytes.
func lastLines(path string, n int) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	offset := max(0, info.Size()-logTailBytes)
	b, err := io.ReadAll(io.NewSectionReader(f, offset, info.Size()-offset))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if offset > 0 && len(lines) > 1 {
		lines = lines[1:] // the first is probably cut
	}
	var kept []string
	for _, line := range lines {
		if line = strings.TrimSpace(line); line != "" {
			kept = append(kept, cut(line, logLineBytes))
		}
	}
	return kept[max(0, len(kept)-n):], nil
}

// cut shortens s to at most n bytes, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
