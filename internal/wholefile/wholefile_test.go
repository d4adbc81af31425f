package wholefile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
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

// writeString is a write func that writes s.
func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// TestWriteThroughASymlink: a link is written through to its target, as
// a shell's ">" does; the link stays a link and no temporary file is left
// beside the link or the target.
func TestWriteThroughASymlink(t *testing.T) {
	tests := []struct {
		name   string
		link   func(target string) string // the link's content, given the target's absolute path
		create bool                       // the target exists before the write
	}{
		{"absolute", func(target string) string { return target }, true},
		{"relative", func(string) string { return filepath.Join("..", "data", "result.json") }, true},
		{"dangling", func(target string) string { return target }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			linkDir, dataDir := filepath.Join(root, "links"), filepath.Join(root, "data")
			for _, d := range []string{linkDir, dataDir} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			target, link := filepath.Join(dataDir, "result.json"), filepath.Join(linkDir, "latest.json")
			if tt.create {
				if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(tt.link(target), link); err != nil {
				t.Fatal(err)
			}
			if err := Write(link, writeString("new")); err != nil {
				t.Fatalf("Write: %v", err)
			}
			if got, err := os.ReadFile(target); err != nil || string(got) != "new" {
				t.Errorf("target holds %q (%v), want the new result", got, err)
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the link is no longer a link: %v, %v", fi.Mode(), err)
			}
			if fi, err := os.Stat(target); tt.create && (err != nil || fi.Mode().Perm() != 0o600) {
				t.Errorf("target's mode %v (%v), want 0600 kept", fi.Mode(), err)
			}
			for _, d := range []string{linkDir, dataDir} {
				if entries, _ := os.ReadDir(d); len(entries) != 1 {
					t.Errorf("%d files in %s, want one", len(entries), d)
				}
			}
		})
	}
}

// TestWriteAFailureThroughASymlinkKeepsTheTarget: the target is still
// written whole: a failed write leaves its old content.
func TestWriteAFailureThroughASymlinkKeepsTheTarget(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "result.json"), filepath.Join(dir, "latest.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("result.json", link); err != nil {
		t.Fatal(err)
	}
	err := Write(link, func(w io.Writer) error {
		io.WriteString(w, "ne")
		return errors.New("no space left on device")
	})
	if got, _ := os.ReadFile(target); err == nil || string(got) != "old" {
		t.Errorf("Write = %v; target holds %q, want the old content", err, got)
	}
}

// TestWriteIntoAFIFO: a reader that opens the FIFO a moment after Write
// began (Write waits for it) gets the whole result, and the FIFO stays a
// FIFO.
func TestWriteIntoAFIFO(t *testing.T) {
	fifo := fixture.FIFO(t, "result.fifo")
	read := make(chan string, 1)
	go func() {
		time.Sleep(100 * time.Millisecond) // after Write found no reader
		b, err := os.ReadFile(fifo)
		if err != nil {
			read <- "error: " + err.Error()
			return
		}
		read <- string(b)
	}()
	if err := Write(fifo, writeString("streamed result")); err != nil {
		t.Fatalf("Write: %v", err)
	}
	select {
	case got := <-read:
		if got != "streamed result" {
			t.Errorf("the reader got %q", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the reader got nothing")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v, %v", fi.Mode(), err)
	}
}

// TestWriteIntoADevice: a device takes the result and stays a device,
// and a link to /dev/null is followed there. The test never names
// /dev/null itself: code that replaced it (as root) would break the
// machine, not just fail.
func TestWriteIntoADevice(t *testing.T) {
	dir := t.TempDir()
	link, device := filepath.Join(dir, "null-link"), filepath.Join(dir, "null")
	if err := os.Symlink(os.DevNull, link); err != nil {
		t.Fatal(err)
	}
	paths := []string{link}
	if syscall.Mknod(device, syscall.S_IFCHR|0o666, 1<<8|3) == nil { // /dev/null's numbers, 1:3; root only
		paths = append(paths, device)
	}
	for _, path := range paths {
		if err := Write(path, writeString("gone")); err != nil {
			t.Errorf("Write(%s): %v", path, err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
			t.Errorf("%s is no longer a device: %v, %v", path, fi.Mode(), err)
		}
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link to %s is no longer a link: %v, %v", os.DevNull, fi.Mode(), err)
	}
}

// TestWriteIntoAProcFD: /dev/stdout is a link to /proc/self/fd/1, whose
// target names no file when it is a pipe ("pipe:[1234]"): written
// directly, the pipe's reader gets the result.
func TestWriteIntoAProcFD(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	path := fmt.Sprintf("/proc/self/fd/%d", w.Fd())
	if _, err := os.Stat(path); err != nil {
		w.Close()
		t.Skipf("no /proc here: %v", err)
	}
	werr := Write(path, writeString("to stdout"))
	w.Close()
	if werr != nil {
		t.Fatalf("Write(%s): %v", path, werr)
	}
	if got, err := io.ReadAll(r); err != nil || string(got) != "to stdout" {
		t.Errorf("the pipe's reader got %q (%v)", got, err)
	}
}

// TestResolveRefusesALinkLoop: a loop of links is an error, not a hang.
func TestResolveRefusesALinkLoop(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := errors.Join(os.Symlink("b", a), os.Symlink("a", b)); err != nil {
		t.Fatal(err)
	}
	if err := Write(a, writeString("x")); !errors.Is(err, syscall.ELOOP) {
		t.Errorf("Write through a loop of links: %v, want ELOOP", err)
	}
}

// TestWriteIntoAFIFOWithoutReader: a FIFO nobody reads is an error at
// once, not a wait for ever.
func TestWriteIntoAFIFOWithoutReader(t *testing.T) {
	fifo := fixture.FIFO(t, "result.fifo")
	defer func(w time.Duration) { readerWait = w }(readerWait)
	readerWait = 50 * time.Millisecond
	if err := Write(fifo, writeString("lost")); !errors.Is(err, ErrNoReader) {
		t.Errorf("Write = %v, want %v", err, ErrNoReader)
	}
}

// TestWriteIntoStdoutRedirectedToAFile: a path to the file stdout is
// redirected into (appending), here through a link as r.json ->
// /dev/stdout would be, is written into, never replaced: what it held
// stays, and it is the same file.
func TestWriteIntoStdoutRedirectedToAFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.txt")
	if err := os.WriteFile(out, []byte("before\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := os.Stdout
	os.Stdout = f
	defer func() { os.Stdout = saved }()
	link := filepath.Join(t.TempDir(), "r.json")
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(out)
	if err := Write(link, writeString("result\n")); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	after, _ := os.Stat(out)
	if string(got) != "before\nresult\n" || !os.SameFile(before, after) {
		t.Errorf("stdout's file holds %q (same file: %v), want the result appended to it", got, os.SameFile(before, after))
	}
}

// TestOpenFIFO: OpenFIFO waits for a reader that comes later, who then
// gets what WriteInto writes; with none it fails after the wait, naming
// it, and at once when the context ends (the wait is then an hour).
func TestOpenFIFO(t *testing.T) {
	const short = 50 * time.Millisecond
	tests := []struct {
		name    string
		reader  bool // a reader opens the FIFO a moment after OpenFIFO starts
		cancel  bool // the context ends a moment after OpenFIFO starts
		wait    time.Duration
		wantErr error
	}{
		{"a reader comes", true, false, time.Hour, nil},
		{"no reader", false, false, short, ErrNoReader},
		{"no reader, interrupted", false, true, time.Hour, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fifo := fixture.FIFO(t, "result.fifo")
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			read := make(chan string, 1)
			if tt.reader {
				time.AfterFunc(short, func() {
					b, _ := os.ReadFile(fifo) // opening waits for the writer
					read <- string(b)
				})
			}
			if tt.cancel {
				time.AfterFunc(short, cancel)
			}
			opened := make(chan error, 1)
			go func() {
				f, err := OpenFIFO(ctx, fifo, tt.wait)
				if err == nil {
					err = WriteInto(f, writeString("streamed"))
				}
				opened <- err
			}()
			var err error
			select {
			case err = <-opened:
			case <-time.After(30 * time.Second):
				t.Fatal("OpenFIFO was still waiting after 30s")
			}
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("OpenFIFO, WriteInto = %v, want %v", err, tt.wantErr)
			}
			if errors.Is(err, ErrNoReader) && !strings.Contains(err.Error(), fmt.Sprint(tt.wait)) {
				t.Errorf("%q does not say the wait, %v", err, tt.wait)
			}
			if tt.reader {
				if got := <-read; got != "streamed" {
					t.Errorf("the reader got %q", got)
				}
			}
		})
	}
}
