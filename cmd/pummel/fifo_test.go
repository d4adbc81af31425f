package main

import (
	"context"
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

// silentWriter opens path to write once a reader has opened it (as a
// shell's `> path` does, waiting for one) and never writes; opened is
// closed once it has, and the test's end closes the FIFO.
func silentWriter(t *testing.T, path string) (opened chan struct{}) {
	t.Helper()
	opened = make(chan struct{})
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return // the test ended first: its directory is gone
		}
		close(opened)
		t.Cleanup(func() { f.Close() })
	}()
	return opened
}

// openedBy returns a channel closed once the process pid holds path open,
// as its files in /proc show (no reader nor writer is added to see it);
// never, where there is no /proc.
func openedBy(pid int, path string) chan struct{} {
	seen := make(chan struct{})
	want, err := os.Stat(path)
	if err != nil {
		return seen
	}
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	go func() {
		for deadline := time.Now().Add(hangLimit); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
			fds, _ := os.ReadDir(dir)
			for _, fd := range fds {
				if fi, err := os.Stat(filepath.Join(dir, fd.Name())); err == nil && os.SameFile(fi, want) {
					close(seen)
					return
				}
			}
		}
	}()
	return seen
}

// bodyFIFOArgs are the arguments that make pummel read fifo as a body:
// --body-file, or a target's @file.
func bodyFIFOArgs(t *testing.T, flag, fifo, url string) []string {
	if flag == "--body-file" {
		return []string{"--body-file", fifo, "-m", "POST", url}
	}
	return []string{"--targets", writeTargets(t, "POST "+url+"\n@"+fifo+"\n")}
}

// TestABodyFIFOIsRead: a body FIFO (--body-file, a target's @file) is read
// as its writer writes it, until it closes it, whether the writer opened
// it first (waiting for pummel, as a shell's `> fifo` does) or after.
func TestABodyFIFOIsRead(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	for _, flag := range []string{"--body-file", "--targets"} {
		t.Run(flag, func(t *testing.T) {
			fifo := fixture.FIFO(t, "body")
			go func() {
				f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
				if err != nil {
					return
				}
				defer f.Close()
				f.WriteString("from a FIFO") //nolint:errcheck // the request shows what came
			}()
			code, _, stderr := pummelBounded(t, t.Context(), append(bodyFIFOArgs(t, flag, fifo, srv.URL()), "-n", "1", "-c", "1")...)
			if last := string(srv.LastRequest()); code != exitOK || !strings.HasSuffix(last, "\r\n\r\nfrom a FIFO") {
				t.Errorf("exit %d, last request %q: want 0 and the FIFO's body\n%s", code, last, stderr)
			}
		})
	}
}

// TestABodyFIFOWaitEndsWithTheContext: a body FIFO that no process
// writes, or whose writer never writes, does not hold pummel: a signal
// (the context ending) ends it at once, interrupted, and no load is sent.
func TestABodyFIFOWaitEndsWithTheContext(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	for _, flag := range []string{"--body-file", "--targets"} {
		for _, writer := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, writer %v", flag, writer), func(t *testing.T) {
				fifo := fixture.FIFO(t, "body")
				var waiting chan struct{}
				if writer {
					waiting = silentWriter(t, fifo)
				} else {
					waiting = openedBy(os.Getpid(), fifo)
				}
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				go func() {
					select {
					case <-waiting:
					case <-time.After(hangLimit / 3): // not seen: interrupt it anyway
					}
					cancel()
				}()
				code, _, stderr := pummelBounded(t, ctx, bodyFIFOArgs(t, flag, fifo, srv.URL())...)
				if code != exitInterrupted || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "interrupted before the run started") || srv.Requests() != 0 {
					t.Errorf("exit %d, stderr %q, %d requests: want 130, one line, none", code, stderr, srv.Requests())
				}
			})
		}
	}
}

// TestSignalsEndABodyFIFOWait: the real pummel, reading a body FIFO that
// no process writes or whose writer is silent, ends at the first SIGINT
// or SIGTERM, interrupted, not at the second.
func TestSignalsEndABodyFIFOWait(t *testing.T) {
	tests := []struct {
		signal syscall.Signal
		flag   string
		writer bool
	}{
		{syscall.SIGINT, "--body-file", true},
		{syscall.SIGTERM, "--targets", false},
	}
	for _, tt := range tests {
		t.Run(tt.signal.String(), func(t *testing.T) {
			fifo := fixture.FIFO(t, "body")
			cmd := exec.Command(pummelBinary(t), bodyFIFOArgs(t, tt.flag, fifo, "http://127.0.0.1:1/")...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			ended := make(chan error, 1)
			go func() { ended <- cmd.Wait() }()
			var waiting chan struct{}
			if tt.writer {
				waiting = silentWriter(t, fifo)
			} else {
				waiting = openedBy(cmd.Process.Pid, fifo)
			}
			select {
			case <-waiting:
			case <-ended:
				t.Fatalf("pummel ended before it read the FIFO: %s", stderr.String())
			case <-time.After(hangLimit):
				t.Log("pummel was not seen reading the FIFO; signalled anyway")
			}
			cmd.Process.Signal(tt.signal) //nolint:errcheck // one that ended already shows in its exit code
			if code := awaitEnd(t, cmd, ended, tt.signal); code != exitInterrupted || !strings.Contains(stderr.String(), "interrupted before the run started, reading "+tt.flag) {
				t.Errorf("exit %d, stderr %q: want 130, interrupted reading %s", code, stderr.String(), tt.flag)
			}
		})
	}
}

// TestAnOutputFIFOWaitsForItsReader: an output FIFO whose reader comes a
// moment after pummel starts is waited for before any load, as tee
// would, and the reader gets the whole output.
func TestAnOutputFIFOWaitsForItsReader(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	tests := []struct {
		flag  string
		check func(got []byte) error
	}{
		{"-o", func(got []byte) error {
			var res stats.Result
			if err := json.Unmarshal(got, &res); err != nil || res.Requests != 1 {
				return fmt.Errorf("not the result of 1 request (%v)", err)
			}
			return nil
		}},
		{"--log-requests", func(got []byte) error {
			if strings.Count(string(got), "\n") != 2 {
				return errors.New("not a header and one line")
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.flag, func(t *testing.T) {
			fifo := fixture.FIFO(t, "out.json")
			before := srv.Requests()
			type outcome struct {
				code   int
				stderr string
			}
			done := make(chan outcome, 1)
			go func() {
				code, _, stderr := pummel(t.Context(), tt.flag, fifo, "-n", "1", "-c", "1", srv.URL())
				done <- outcome{code, stderr}
			}()
			select {
			case o := <-done:
				t.Fatalf("pummel ended (exit %d, %q) before the FIFO's reader came", o.code, o.stderr)
			case <-time.After(200 * time.Millisecond): // the reader comes a moment later
			}
			if n := srv.Requests() - before; n != 0 {
				t.Errorf("%d requests sent before the FIFO's reader came", n)
			}
			read := make(chan []byte, 1)
			go func() {
				b, _ := os.ReadFile(fifo)
				read <- b
			}()
			var o outcome
			select {
			case o = <-done:
			case <-time.After(hangLimit):
				t.Fatalf("pummel was still running %v after the reader came", hangLimit)
			}
			got := <-read
			if err := tt.check(got); o.code != exitOK || err != nil {
				t.Errorf("exit %d, the reader got %q: %v\n%s", o.code, got, err, o.stderr)
			}
		})
	}
}

// TestAnOutputFIFOWaitEndsWithTheContext: a signal (the context ending)
// ends pummel's wait for an output FIFO's reader at once, interrupted.
func TestAnOutputFIFOWaitEndsWithTheContext(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	fifo := fixture.FIFO(t, "out.json")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	time.AfterFunc(100*time.Millisecond, cancel)
	code, _, stderr := pummelBounded(t, ctx, "-o", fifo, "-n", "1", "-c", "1", srv.URL())
	if code != exitInterrupted || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "-o "+fifo) || srv.Requests() != 0 {
		t.Errorf("exit %d, stderr %q, %d requests: want 130, one line naming -o %s, none", code, stderr, srv.Requests(), fifo)
	}
}

// TestOpenFIFOs: an output FIFO that no process opens to read within the
// wait is bad input (exit 2, one line naming the flag, the file and the
// wait); other outputs are not opened.
func TestOpenFIFOs(t *testing.T) {
	fifo := fixture.FIFO(t, "out.json")
	regular := filepath.Join(t.TempDir(), "r.json")
	outs := []output{{flag: "-o", path: regular}, {flag: "--hdr-log", path: fifo}}
	opened, err := openFIFOs(t.Context(), outs, 50*time.Millisecond)
	var usage usageError
	if want := "--hdr-log " + fifo + ": no process reads this FIFO: none opened it in 50ms"; !errors.As(err, &usage) || !strings.Contains(usage.msg, want) || opened != nil {
		t.Errorf("openFIFOs = %v, %v; want a usage error with %q", opened, err, want)
	}
	go func() {
		if f, err := os.Open(fifo); err == nil { // waits for pummel
			io.Copy(io.Discard, f) //nolint:errcheck // read to the end
			f.Close()
		}
	}()
	opened, err = openFIFOs(t.Context(), outs, hangLimit)
	defer opened.close()
	if err != nil || len(opened) != 1 || opened[fifo] == nil {
		t.Errorf("with a reader: %v, %v; want the FIFO alone open", opened, err)
	}
}
