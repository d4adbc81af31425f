package proc

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
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

// openLog opens (truncating) or creates the server's log file; created
// tells whether it made the file: a temporary one for path "", or path
// where no file was.
func openLog(path string) (f *os.File, created bool, err error) {
	if path == "" {
		f, err := os.CreateTemp("", "pummel-server-*.log")
		if err != nil {
			return nil, false, fmt.Errorf("creating the server log: %w", err)
		}
		return f, true, nil
	}
	f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	created = err == nil
	if errors.Is(err, fs.ErrExist) {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	}
	if err != nil {
		return nil, false, fmt.Errorf("opening the server log: %w", err)
	}
	return f, created, nil
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
