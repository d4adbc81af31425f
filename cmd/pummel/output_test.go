package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

func TestOutputsAreCheckedBeforeTheLoad(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	isDir := filepath.Join(dir, "dir.json")
	if err := os.Mkdir(isDir, 0o755); err != nil {
		t.Fatal(err)
	}
	readOnly := filepath.Join(dir, "read-only")
	if err := os.Mkdir(readOnly, 0o555); err != nil {
		t.Fatal(err)
	}
	srv := fixture.New(t, fixture.Behaviour{})
	tests := []struct {
		name string
		args []string
		want string // the flag and path the line names
	}{
		{"-o in a missing directory", []string{"-o", "/nonexistent/dir/out.json"}, "-o /nonexistent/dir/out.json"},
		{"-o that is a directory", []string{"-o", isDir}, "-o " + isDir + ": is a directory"},
		{"second -o in a missing directory", []string{"-o", filepath.Join(dir, "a.json"), "--output=/nonexistent/b.md"}, "-o /nonexistent/b.md"},
		{"--hdr-log in a missing directory", []string{"--hdr-log", "/nonexistent/l.hlog"}, "--hdr-log /nonexistent/l.hlog"},
		{"--log-requests in a missing directory", []string{"--log-requests", "/nonexistent/r.csv"}, "--log-requests /nonexistent/r.csv"},
		{"--log-requests that is a directory", []string{"--log-requests", isDir}, "--log-requests " + isDir + ": is a directory"},
		{"-o under a file", []string{"-o", filepath.Join(file, "out.json")}, "-o " + file},
		{"-o in a read-only directory", []string{"-o", filepath.Join(readOnly, "out.json")}, "-o " + readOnly},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.Contains(tt.name, "read-only") && os.Geteuid() == 0 {
				t.Skip("root writes into read-only directories")
			}
			code, _, stderr := pummel(t.Context(), append([]string{"-c", "1", "-n", "5", srv.URL()}, tt.args...)...)
			if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q: want 2 and one line naming %q", code, stderr, tt.want)
			}
		})
	}
	if n := srv.Requests(); n != 0 {
		t.Errorf("the server received %d requests: outputs must be checked before any load", n)
	}
	results, _ := savedResult(t)
	for _, args := range [][]string{
		{"report", "--plot", filepath.Join(file, "charts"), results},
		{"report", "--plots", "-o", filepath.Join(file, "r.md"), results},
	} {
		code, _, stderr := pummel(t.Context(), args...)
		if code != exitUsage || !strings.Contains(stderr, file) {
			t.Errorf("%q: exit %d, stderr %q: want 2 naming %s", args, code, stderr, file)
		}
	}
}

// savedResult runs a short load and saves its result.
func savedResult(t *testing.T) (path string, res stats.Result) {
	t.Helper()
	srv := fixture.New(t, fixture.Behaviour{})
	path = filepath.Join(t.TempDir(), "saved.json")
	if code, _, stderr := pummel(t.Context(), "-c", "1", "-n", "20", "-o", path, srv.URL()); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &res) != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return path, res
}

func TestEveryOutputThatCanBeWrittenIs(t *testing.T) {
	_, res := savedResult(t)
	dir := t.TempDir()
	good, failing, alsoFailing := filepath.Join(dir, "good.json"), filepath.Join(dir, "failing.json"), filepath.Join(dir, "also.md")
	const previous = `{"requests": 1}`
	if err := os.WriteFile(failing, []byte(previous), 0o640); err != nil {
		t.Fatal(err)
	}
	diskFull := func(w io.Writer, _ stats.Result) error {
		io.WriteString(w, `{"requests": `) //nolint:errcheck // half a result, then the failure
		return syscall.ENOSPC
	}
	o := &options{format: "text"}
	outs := []output{
		{flag: "-o", path: failing, render: diskFull},
		{flag: "-o", path: good, render: func(w io.Writer, r stats.Result) error { return stats.WriteJSON(w, r) }},
		{flag: "-o", path: alsoFailing, render: diskFull},
	}
	var stdout strings.Builder
	err := (&loader{opts: o, stdout: &stdout}).writeResult(outs, res)
	if err == nil || len(strings.Split(err.Error(), "\n")) != 2 ||
		!strings.Contains(err.Error(), "-o "+failing+": no space left") || !strings.Contains(err.Error(), "-o "+alsoFailing) {
		t.Errorf("error %v: want one line for each failed output", err)
	}
	if b, _ := os.ReadFile(failing); string(b) != previous {
		t.Errorf("a failed write left %s as %q; want the previous result intact", failing, b)
	}
	if _, err := os.Stat(alsoFailing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed write left %s behind (%v)", alsoFailing, err)
	}
	if fi, err := os.Stat(good); err != nil || fi.Size() == 0 || fi.Mode().Perm() != 0o644 {
		t.Errorf("the output that could be written: %v, %v", fi, err)
	}
	if fi, _ := os.Stat(failing); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode of the kept file changed to %v", fi.Mode())
	}
	if !strings.Contains(stdout.String(), "Requests/sec:") {
		t.Errorf("stdout not written after failed files:\n%s", stdout.String())
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// brokenPipe is stdout whose reader has gone.
type brokenPipe struct{}

func (brokenPipe) Write([]byte) (int, error) { return 0, syscall.EPIPE }

func TestClosedStdoutIsNotALostRun(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	dir := t.TempDir()
	out := filepath.Join(dir, "in-process.json")
	var stderr strings.Builder
	code := run(t.Context(), []string{"-c", "1", "-n", "20", "-o", out, "--latency", srv.URL()}, brokenPipe{}, &stderr)
	if _, err := os.Stat(out); code != 0 || err != nil {
		t.Errorf("in process: exit %d, %s: %v\n%s", code, out, err, stderr.String())
	}
	// The real thing: `pummel … | true`, a pipe with no reader, in a child.
	out = filepath.Join(dir, "child.json")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	cmd := exec.Command(pummelBinary(t), "-c", "1", "-n", "20", "-o", out, srv.URL())
	cmd.Stdout = w
	err = cmd.Run()
	w.Close()
	if _, statErr := os.Stat(out); err != nil || statErr != nil {
		t.Errorf("stdout a closed pipe: %v (want exit 0), %s: %v", err, out, statErr)
	}
}

// Help to a stdout whose reader has gone (`pummel --help | true`) ends
// as quietly as any other output does, whichever way it is asked for.
func TestHelpToAClosedStdout(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"run", "-h"}, {"help", "compare"}, {"compare", "--help"}} {
		var stderr strings.Builder
		if code := run(t.Context(), args, brokenPipe{}, &stderr); code != 0 || stderr.Len() > 0 {
			t.Errorf("%v to a closed stdout: exit %d, stderr %q; want 0 and nothing", args, code, stderr.String())
		}
	}
}

func TestHangUpWritesPartialResults(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	out := filepath.Join(t.TempDir(), "out.json")
	cmd := exec.Command(pummelBinary(t), "-c", "1", "-d", "1m", "-o", out, srv.URL())
	if code := signalDuringTheLoad(t, cmd, srv, 1, syscall.SIGHUP); code != exitInterrupted {
		t.Errorf("after SIGHUP: exit %d, want %d", code, exitInterrupted)
	}
	b, readErr := os.ReadFile(out)
	var res stats.Result
	if readErr != nil || json.Unmarshal(b, &res) != nil || !res.Interrupted || res.Requests == 0 {
		t.Errorf("after SIGHUP, %s: %v, interrupted %v, %d requests", out, readErr, res.Interrupted, res.Requests)
	}
}

// signalDuringTheLoad starts cmd, a pummel loading srv, sends it sig once
// srv has had requests (or hangLimit passed), and returns its exit code;
// it fails the test if cmd is still running hangLimit after sig.
func signalDuringTheLoad(t *testing.T, cmd *exec.Cmd, srv *fixture.Server, requests int64, sig os.Signal) int {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(hangLimit); srv.Requests() < requests && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	// One that ended already shows in its exit code.
	if err := cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		cmd.Process.Kill() //nolint:errcheck // the test fails anyway
		t.Fatalf("%v: %v", sig, err)
	}
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	return awaitEnd(t, cmd, ended, sig)
}

// awaitEnd waits for cmd, a pummel sent sig, to end (its Wait's outcome
// comes on ended) and returns its exit code; it kills it and fails the
// test if it is still running hangLimit later.
func awaitEnd(t *testing.T, cmd *exec.Cmd, ended <-chan error, sig os.Signal) int {
	t.Helper()
	select {
	case <-ended:
	case <-time.After(hangLimit):
		cmd.Process.Kill() //nolint:errcheck // the test fails anyway
		<-ended
		t.Fatalf("pummel was still running %v after one %v", hangLimit, sig)
	}
	return cmd.ProcessState.ExitCode()
}

// TestOutputThroughALinkAndIntoAPipe: -o through a symbolic link updates
// the link's target (the link stays), and -o through a link to
// /proc/self/fd/N (as /dev/stdout leads there) streams into the pipe it
// names, whose reader gets the result.
func TestOutputThroughALinkAndIntoAPipe(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "result.json"), filepath.Join(dir, "latest.json")
	if err := os.WriteFile(target, []byte(`{"requests": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("result.json", link); err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fd := fmt.Sprintf("/proc/self/fd/%d", w.Fd())
	if _, err := os.Stat(fd); err != nil {
		w.Close()
		t.Skipf("no /proc here: %v", err)
	}
	piped := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(r); piped <- b }()
	srv := fixture.New(t, fixture.Behaviour{})
	toPipe := filepath.Join(dir, "pipe.json")
	if err := os.Symlink(fd, toPipe); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := pummel(t.Context(), "-c", "1", "-n", "5", "-o", link, "-o", toPipe, srv.URL())
	w.Close()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res stats.Result
	if b, err := os.ReadFile(target); err != nil || json.Unmarshal(b, &res) != nil || res.Requests != 5 {
		t.Errorf("the link's target holds %.40q (%v), want the new result", b, err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("-o replaced the link: %v, %v", fi.Mode(), err)
	}
	select {
	case b := <-piped:
		if json.Unmarshal(b, &res) != nil || res.Requests != 5 {
			t.Errorf("the pipe's reader got %.80q, want the JSON result", b)
		}
	case <-time.After(10 * time.Second):
		t.Error("the pipe's reader got nothing")
	}
}
