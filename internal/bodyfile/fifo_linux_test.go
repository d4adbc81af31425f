package bodyfile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
)

// writer opens path to write once a reader has opened it (as a shell's
// `> path` does), writes chunks, and closes it unless silent; opened is
// closed once the FIFO is open, and the test ends by closing it.
func writer(t *testing.T, path string, silent bool, chunks ...string) (opened chan struct{}) {
	t.Helper()
	opened = make(chan struct{})
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0) // waits for the reader
		if err != nil {
			t.Errorf("the writer: %v", err)
			return
		}
		close(opened)
		for _, c := range chunks {
			f.WriteString(c) //nolint:errcheck // the reader sees what came
		}
		if silent {
			t.Cleanup(func() { f.Close() })
			return
		}
		f.Close()
	}()
	return opened
}

// readBounded is Read, failing the test if it has not returned within
// hang.
func readBounded(t *testing.T, ctx context.Context, path string, limit int64, wait time.Duration) ([]byte, error) {
	t.Helper()
	type outcome struct {
		b   []byte
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		b, err := Read(ctx, path, limit, wait)
		done <- outcome{b, err}
	}()
	select {
	case o := <-done:
		return o.b, o.err
	case <-time.After(hang):
		t.Fatalf("Read(%s) was still waiting after %v", path, hang)
		return nil, nil
	}
}

// TestReadAFIFO: a FIFO's body is what its writer writes until it closes
// it, and no more than the limit.
func TestReadAFIFO(t *testing.T) {
	tests := []struct {
		name    string
		chunks  []string
		limit   int64
		want    string
		wantErr error
	}{
		{"one write", []string{"hello"}, 16, "hello", nil},
		{"several writes", []string{"he", "ll", "o"}, 16, "hello", nil},
		{"closed unwritten", nil, 16, "", nil},
		{"exactly the limit", []string{"0123456789abcdef"}, 16, "0123456789abcdef", nil},
		{"over the limit", []string{"0123456789abcdef", "!"}, 16, "", ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := fixture.FIFO(t, "body.fifo")
			writer(t, path, false, tt.chunks...)
			got, err := readBounded(t, t.Context(), path, tt.limit, hang)
			if string(got) != tt.want || !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Errorf("Read = %q, %v; want %q, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestReadAFIFONobodyWrites: a FIFO that no process opens, or whose
// writer never writes nor closes it, fails after the wait, and at once
// when the context ends; the wait itself is an hour then.
func TestReadAFIFONobodyWrites(t *testing.T) {
	const short = 50 * time.Millisecond
	tests := []struct {
		name    string
		writer  bool // a silent writer opens the FIFO
		cancel  bool // the context ends once the read waits
		wait    time.Duration
		wantErr error
	}{
		{"no writer", false, false, short, ErrNoWriter},
		{"a silent writer", true, false, short, ErrNoWriter},
		{"no writer, interrupted", false, true, time.Hour, context.Canceled},
		{"a silent writer, interrupted", true, true, time.Hour, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := fixture.FIFO(t, "body.fifo")
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			waiting := make(chan struct{}) // the reader has opened the FIFO
			if tt.writer {
				waiting = writer(t, path, true)
			} else {
				go func() { waitForReader(path); close(waiting) }()
			}
			if tt.cancel {
				go func() { <-waiting; cancel() }()
			}
			got, err := readBounded(t, ctx, path, 16, tt.wait)
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("Read = %q, %v; want %v", got, err, tt.wantErr)
			}
			if want := fmt.Sprint(tt.wait); errors.Is(err, ErrNoWriter) && !strings.Contains(err.Error(), want) {
				t.Errorf("%q does not say the wait, %s", err, want)
			}
			if errors.Is(err, ErrNoWriter) && (!strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), "start its writer")) {
				t.Errorf("%q does not name the FIFO and what to do", err)
			}
		})
	}
}

// waitForReader returns once a process has path open to read, without
// opening it to write (which would be a writer): it looks for the FIFO
// among this process's open files, as the reader is this test's Read.
func waitForReader(path string) {
	want, err := os.Stat(path)
	if err != nil {
		return
	}
	for deadline := time.Now().Add(hang); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		fds, _ := os.ReadDir("/proc/self/fd")
		for _, fd := range fds {
			if fi, err := os.Stat(filepath.Join("/proc/self/fd", fd.Name())); err == nil && os.SameFile(fi, want) {
				return
			}
		}
	}
}

// TestReadAPipe: a shell's <(…) is a pipe named /dev/fd/N, already open to
// write: its body is what was written once the writer closes it, also
// when it closed before Read opened it.
func TestReadAPipe(t *testing.T) {
	for _, closedFirst := range []bool{true, false} {
		t.Run(fmt.Sprintf("closed first %v", closedFirst), func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			path := fmt.Sprintf("/proc/self/fd/%d", r.Fd())
			w.WriteString("from a pipe") //nolint:errcheck // the reader sees what came
			if closedFirst {
				w.Close()
			} else {
				time.AfterFunc(10*time.Millisecond, func() { w.Close() })
			}
			got, err := readBounded(t, t.Context(), path, 64, hang)
			if string(got) != "from a pipe" || err != nil {
				t.Errorf("Read = %q, %v; want %q", got, err, "from a pipe")
			}
		})
	}
}
