package render

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/golden"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/internal/statstest"
	"github.com/pummel-dev/pummel/stats/record"
)

func TestRenderersGolden(t *testing.T) {
	for _, f := range statstest.Fixtures(t) {
		t.Run(f.Name, func(t *testing.T) {
			for _, out := range []struct {
				ext   string
				write func(*bytes.Buffer) error
			}{
				{"txt", func(b *bytes.Buffer) error { return WriteText(b, f.Result, TextOptions{Latency: f.Latency}) }},
				{"md", func(b *bytes.Buffer) error { return WriteMarkdown(b, f.Result) }},
			} {
				var b bytes.Buffer
				if err := out.write(&b); err != nil {
					t.Fatalf("%s: %v", out.ext, err)
				}
				if s := b.String(); strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
					t.Errorf("%s output holds NaN or Inf:\n%s", out.ext, s)
				}
				golden.Check(t, f.Name+"."+out.ext+".golden", b.Bytes())
			}
		})
	}
}

// TestWriteTextReproducesWrk feeds wrk's own published figures through
// WriteText and expects wrk's output byte for byte: with nothing beyond what
// wrk measures, pummel prints exactly what wrk prints, but for the unit of
// the bytes read, which pummel names as it computes it (GiB where wrk says
// GB for 2^30). Transfer/sec, which scripts grep, keeps wrk's "MB".
func TestWriteTextReproducesWrk(t *testing.T) {
	for _, tt := range []struct {
		name string
		r    stats.Result
		opts TextOptions
		want string
	}{{
		name: "wrk README",
		r: stats.Result{
			Requests: 22464657, DurationS: 30, RequestsPerS: 748868.53, BytesRead: mib(606.33 * 30),
			Latency:    &stats.Latency{Mean: 635.91, Stdev: 890, Max: 12920, WithinStdevPct: 93.69},
			ThreadRate: stats.Spread{Mean: 56_200, Stdev: 8_070, Max: 62_000, WithinStdevPct: 86.54},
			Config:     stats.Config{URL: "http://127.0.0.1:8080/index.html", Connections: 400, Threads: 12, DurationS: 30},
		},
		want: `Running 30s test @ http://127.0.0.1:8080/index.html
  12 threads and 400 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   635.91us    0.89ms  12.92ms   93.69%
    Req/Sec    56.20k     8.07k   62.00k    86.54%
  22464657 requests in 30.00s, 17.76GiB read
Requests/sec: 748868.53
Transfer/sec:    606.33MB
`,
	}, {
		name: "wrk --latency with socket errors (seed 004)",
		r: stats.Result{
			Requests: 965396910, DurationS: 600.097, RequestsPerS: 1608742.65, BytesRead: mib(167.23 * 600.097),
			Errors:     stats.Errors{Connect: 19},
			Latency:    &stats.Latency{Mean: 1030, Stdev: 1840, Max: 208_100, P50: 475, P75: 784, P90: 2120, P99: 9740, WithinStdevPct: 92.16},
			ThreadRate: stats.Spread{Mean: 101_110, Stdev: 17_590, Max: 164_780, WithinStdevPct: 70.99},
			Config:     stats.Config{URL: "http://localhost:13734/empty-operation", Connections: 1024, Threads: 16, DurationS: 600},
		},
		opts: TextOptions{Latency: true},
		want: `Running 10m test @ http://localhost:13734/empty-operation
  16 threads and 1024 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.03ms    1.84ms 208.10ms   92.16%
    Req/Sec   101.11k    17.59k  164.78k    70.99%
  Latency Distribution
     50%  475.00us
     75%  784.00us
     90%    2.12ms
     99%    9.74ms
  965396910 requests in 10.00m, 98.00GiB read
  Socket errors: connect 19, read 0, write 0, timeout 0
Requests/sec: 1608742.65
Transfer/sec:    167.23MB
`,
	}} {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteText(&b, tt.r, tt.opts); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestTextHeaderNamesTheLoadShape(t *testing.T) {
	for _, tt := range []struct {
		name string
		c    stats.Config
		want string
	}{
		{"whole seconds as wrk", stats.Config{URL: "http://h/", DurationS: 90}, "Running 2m test @ http://h/\n"},
		{"sub-second duration", stats.Config{URL: "http://h/", DurationS: 0.5}, "Running 500ms test @ http://h/\n"},
		{"fractional seconds", stats.Config{URL: "http://h/", DurationS: 1.5}, "Running 1.5s test @ http://h/\n"},
		{"request count", stats.Config{URL: "http://h/", Requests: 40000}, "Running 40000 requests test @ http://h/\n"},
		{"request count within a duration", stats.Config{URL: "http://h/", Requests: 500, DurationS: 10},
			"Running 500 requests test (at most 10s) @ http://h/\n"},
		{"warm-up", stats.Config{URL: "http://h/", DurationS: 10, WarmupS: 2}, "Running 10s test (after a 2s warm-up) @ http://h/\n"},
		{"warm-up requests", stats.Config{URL: "http://h/", Requests: 500, WarmupRequests: 100},
			"Running 500 requests test (after 100 warm-up requests) @ http://h/\n"},
		{"one rate", stats.Config{URL: "http://h/", DurationS: 10, Rates: []float64{1000}}, "Running 10s test (at 1000 req/s) @ http://h/\n"},
		{"rate stages", stats.Config{URL: "http://h/", DurationS: 3, Rates: []float64{100, 500, 2000}, WarmupS: 2},
			"Running 9s test (3 stages of 3s at 100, 500, 2000 req/s, after a 2s warm-up) @ http://h/\n"},
		{"runs of a count", stats.Config{URL: "http://h/", Requests: 20000, Runs: 2},
			"Running 40000 requests test (2 runs of 20000 requests) @ http://h/\n"},
		{"runs of a count within a duration", stats.Config{URL: "http://h/", Requests: 100, DurationS: 5, Runs: 3},
			"Running 300 requests test (3 runs of 100 requests, at most 5s each) @ http://h/\n"},
		{"runs of stages", stats.Config{URL: "http://h/", DurationS: 3, Rates: []float64{10, 20}, WarmupS: 1, Runs: 2},
			"Running 12s test (2 runs of 6s, 2 stages of 3s at 10, 20 req/s, after a 1s warm-up each) @ http://h/\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteText(&b, stats.Result{Config: tt.c}, TextOptions{}); err != nil {
				t.Fatal(err)
			}
			if got, _, _ := strings.Cut(b.String(), "  "); got != tt.want {
				t.Errorf("header = %q, want %q", got, tt.want)
			}
		})
	}
}

type failingWriter struct{ after int }

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.after {
		n := w.after
		w.after = 0
		return n, errDiskFull
	}
	w.after -= len(p)
	return len(p), nil
}

func TestRenderersReturnWriteErrors(t *testing.T) {
	r := statstest.Failing()
	for _, tt := range []struct {
		name  string
		write func(*failingWriter) error
	}{
		{"text", func(w *failingWriter) error { return WriteText(w, r, TextOptions{Latency: true}) }},
		{"markdown", func(w *failingWriter) error { return WriteMarkdown(w, r) }},
		{"json", func(w *failingWriter) error { return stats.WriteJSON(w, r) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, after := range []int{0, 100, 1000} {
				if err := tt.write(&failingWriter{after: after}); !errors.Is(err, errDiskFull) {
					t.Errorf("write failing after %d bytes: err = %v, want %v", after, err, errDiskFull)
				}
			}
		})
	}
}

// mib converts mebibytes to bytes at run time (the constants above are not
// whole numbers of bytes).
func mib(n float64) int64 { return int64(n * (1 << 20)) }

// TestNoResponseHasNoLatency pins that a run in which every request failed
// shows its latency as absent in every output, never as zeros.
func TestNoResponseHasNoLatency(t *testing.T) {
	rec := record.New()
	rec.AddErrors(record.Timeout, "no response within 2s", 8)
	r := stats.Merge([]*record.Recorder{rec}, time.Second, nil)
	r.Config = stats.Config{URL: "http://127.0.0.1:9/", Method: "GET", Connections: 2, Threads: 1, DurationS: 1}
	var text, md, js strings.Builder
	if err := errors.Join(WriteText(&text, r, TextOptions{Latency: true}), WriteMarkdown(&md, r), stats.WriteJSON(&js, r)); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, out string
		want      []string
	}{
		{"text", text.String(), []string{"    Latency          -         -        -        -\n", "     50%         -\n"}},
		{"markdown", md.String(), []string{"| Latency p99 | - |", "| 99.99% | - |"}},
		{"json", js.String(), []string{`"latency_us": null,`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, want := range tt.want {
				if !strings.Contains(tt.out, want) {
					t.Errorf("output lacks %q:\n%s", want, tt.out)
				}
			}
			if strings.Contains(tt.out, "0.00us") || strings.Contains(tt.out, `"p50": 0`) {
				t.Errorf("output shows a latency of zero:\n%s", tt.out)
			}
		})
	}
}

// TestCombinedHeaderAgreesWithTotals pins that results merged one after
// another are announced as the runs they are, so that the header and the
// totals line tell the same length.
func TestCombinedHeaderAgreesWithTotals(t *testing.T) {
	one := stats.Merge([]*record.Recorder{statstest.Recorded(statstest.Spread(100, 10, time.Microsecond)...)}, time.Second, nil)
	one.Config = stats.Config{URL: "http://h/", Connections: 1, Threads: 1, DurationS: 1}
	got, err := stats.Combine([]stats.Result{one, one}, stats.Sequential)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteText(&b, got, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Running 2s test (2 runs of 1s) @ http://h/\n", "  20 requests in 2.00s"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}
