package requestlog

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/stats/record"
)

// blockedWriter holds every write until released.
type blockedWriter struct {
	release chan struct{}
	buf     bytes.Buffer
}

func (w *blockedWriter) Write(p []byte) (int, error) {
	<-w.release
	return w.buf.Write(p)
}

// TestDropsWhenWriterIsBehind: with the writer stuck, an appender fills
// the buffers that may exist and then drops and counts, never blocks;
// what it kept is written once the writer moves again.
func TestDropsWhenWriterIsBehind(t *testing.T) {
	l := New(Options{Buffers: 2, Records: 4})
	w := &blockedWriter{release: make(chan struct{})}
	drained := make(chan error, 1)
	go func() { drained <- l.Drain(w) }()
	a := l.Appender()
	for i := range 13 { // two buffers of 4, then 5 with none free
		a.Add(Record{Sent: time.Duration(i) * time.Microsecond, Status: 200})
	}
	a.Flush()
	if got := l.Dropped(); got != 5 {
		t.Errorf("dropped %d records, want 5", got)
	}
	close(w.release)
	l.Close()
	if err := <-drained; err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(w.buf.String()), "\n")
	if len(lines) != 1+8 || l.Lines() != 8 {
		t.Errorf("%d lines written (counted %d), want the header and 8:\n%s", len(lines), l.Lines(), w.buf.String())
	}
}

// TestBuffersAreReused: once the writer keeps up, buffers come back and
// nothing is dropped however many records pass.
func TestBuffersAreReused(t *testing.T) {
	l := New(Options{Buffers: 2, Records: 4})
	var out bytes.Buffer
	drained := make(chan error, 1)
	go func() { drained <- l.Drain(&out) }()
	a := l.Appender()
	for range 10 {
		for range 8 {
			a.Add(Record{Status: 200})
		}
		// Wait for every buffer made so far to come back. The second is
		// made only if the writer has not given the first back by the
		// time the appender fills it: after a quick writer there is one,
		// and waiting for two never ended.
		for int64(len(l.free)) < l.made.Load() {
			time.Sleep(time.Millisecond)
		}
	}
	l.Close()
	if err := <-drained; err != nil {
		t.Fatal(err)
	}
	if l.Dropped() != 0 || l.Lines() != 80 || l.made.Load() > 2 {
		t.Errorf("dropped %d, wrote %d lines with %d buffers; want 0, 80, at most 2", l.Dropped(), l.Lines(), l.made.Load())
	}
}

func TestLines(t *testing.T) {
	tests := []struct {
		name string
		open bool
		r    Record
		want string
	}{
		{"response", false, Record{Sent: 1500 * time.Nanosecond, Status: 200, Latency: 123456 * time.Nanosecond,
			BytesIn: 38, BytesOut: 40, Conn: 3, Worker: 1}, "1.500,0,200,,,123.456,,38,40,3,1"},
		{"open loop", true, Record{Sent: time.Millisecond, Status: 503, Class: record.Status, Failed: true,
			Latency: 2 * time.Millisecond, Uncorrected: time.Millisecond, Conn: 1}, "1000.000,0,503,status,,2000.000,1000.000,0,0,1,0"},
		{"error", true, Record{Sent: 7 * time.Microsecond, Class: record.Read, Failed: true, Cause: "reset before responding",
			BytesOut: 40, Conn: 2}, "7.000,0,,read,reset before responding,,,0,40,2,0"},
		{"quoted cause", false, Record{Class: record.Validation, Failed: true, Cause: `body "x", not y`},
			`0.000,0,,validation,"body ""x"", not y",,,0,0,,0`},
		{"scrubbed cause", false, Record{Class: record.Validation, Failed: true, Cause: "token s3cret"},
			"0.000,0,,validation,token [REDACTED],,,0,0,,0"},
	}
	scrub := func(s string) string { return strings.ReplaceAll(s, "s3cret", "[REDACTED]") }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := formatter{open: tt.open, scrub: scrub, causes: map[string]string{}}
			if got := string(f.chunk([]Record{tt.r})); got != tt.want+"\n" {
				t.Errorf("line %q, want %q", got, tt.want)
			}
		})
	}
}

func TestGzip(t *testing.T) {
	l := New(Options{Gzip: true})
	var out bytes.Buffer
	drained := make(chan error, 1)
	go func() { drained <- l.Drain(&out) }()
	a := l.Appender()
	a.Add(Record{Status: 204, Conn: 1})
	a.Flush()
	l.Close()
	if err := <-drained; err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(&out)
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if want := Header + "0.000,0,204,,,0.000,,0,0,1,0\n"; string(text) != want {
		t.Errorf("read %q, want %q", text, want)
	}
}
