package engine

import (
	"bytes"
	"encoding/csv"
	"errors"
	"math"
	"net"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
	"github.com/pummel-dev/pummel/stats/requestlog"
)

// startLog starts a request log written into a buffer; stop closes it
// and returns its lines, header first.
func startLog(t *testing.T, open bool) (l *requestlog.Log, stop func() [][]string) {
	t.Helper()
	l = requestlog.New(requestlog.Options{Open: open})
	var out bytes.Buffer
	drained := make(chan error, 1)
	go func() { drained <- l.Drain(&out) }()
	return l, func() [][]string {
		l.Close()
		if err := <-drained; err != nil {
			t.Fatal(err)
		}
		lines, err := csv.NewReader(&out).ReadAll()
		if err != nil {
			t.Fatalf("the log is not CSV: %v", err)
		}
		return lines
	}
}

// TestRequestLogHasALinePerRequest: against a server that resets one
// request in four, the log holds one line per response and one per read
// error, errors without a status; and its latencies rebuild the run's
// percentiles.
func TestRequestLogHasALinePerRequest(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{ResetAfterResponses: 3})
			l, stop := startLog(t, false)
			res := runLoad(t, srv, Config{Engine: engine, Requests: 500, Connections: 4, Threads: 2, RequestLog: l})
			lines := stop()
			if l.Dropped() != 0 {
				t.Fatalf("%d lines dropped", l.Dropped())
			}
			if res.Errors.Read == 0 || ended(res) != 500 {
				t.Fatalf("%d responses and errors %+v: the fixture should reset some of 500 requests", res.Requests, res.Errors)
			}
			if got, want := int64(len(lines)-1), res.Requests+res.Errors.Total(); got != want {
				t.Fatalf("%d lines, want %d: %d responses and %d errors", got, want, res.Requests, res.Errors.Total())
			}
			checkLines(t, lines, res)
		})
	}
}

// checkLines checks the log's lines against the run's result.
func checkLines(t *testing.T, lines [][]string, res stats.Result) {
	t.Helper()
	h := record.NewHistogram()
	var errs int64
	for _, f := range lines[1:] {
		status, class, latency := f[2], f[3], f[5]
		if status == "" {
			if class != "read" || latency != "" || f[4] == "" {
				t.Fatalf("error line %q: want class read, a cause and no latency", f)
			}
			errs++
			continue
		}
		us, err := strconv.ParseFloat(latency, 64)
		if status != "200" || class != "" || err != nil || f[9] == "" {
			t.Fatalf("response line %q", f)
		}
		h.RecordValue(max(int64(math.Round(us*1000)), record.HistogramMin)) //nolint:errcheck // within range
	}
	if errs != res.Errors.Read {
		t.Errorf("%d error lines, %d read errors", errs, res.Errors.Read)
	}
	rebuilt := stats.Summarize(h)
	for _, q := range []struct {
		name      string
		log, want float64
	}{{"p50", rebuilt.P50, res.Latency.P50}, {"p99", rebuilt.P99, res.Latency.P99}} {
		if math.Abs(q.log-q.want) > q.want/1000 {
			t.Errorf("%s from the log %.3f µs, the run's %.3f µs", q.name, q.log, q.want)
		}
	}
}

// TestRequestLogOpenLoop: in open loop a response's line has both
// latencies, the corrected one from the intended send never the smaller;
// warm-up requests have no line.
func TestRequestLogOpenLoop(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{})
			l, stop := startLog(t, true)
			res := runLoad(t, srv, Config{Engine: engine, Rates: []float64{400}, Duration: 250 * time.Millisecond,
				Warmup: 100 * time.Millisecond, Connections: 2, RequestLog: l})
			lines := stop()
			if got := int64(len(lines) - 1); got != res.Requests+res.Errors.Total() || got == 0 {
				t.Fatalf("%d lines for %d responses and %d errors", got, res.Requests, res.Errors.Total())
			}
			for _, f := range lines[1:] {
				sent, err1 := strconv.ParseFloat(f[0], 64)
				corrected, err2 := strconv.ParseFloat(f[5], 64)
				uncorrected, err3 := strconv.ParseFloat(f[6], 64)
				if err := errors.Join(err1, err2, err3); err != nil || sent < 0 || uncorrected > corrected {
					t.Fatalf("line %q: want a send time from the measurement's start and uncorrected ≤ corrected latency (%v)", f, err)
				}
			}
		})
	}
}

// TestRequestLogConnectErrorsSayTheirOwnTime: against a server that
// answers one request and then refuses every connection, each connect
// error's line says when its own dial failed, not when the last request
// written before it was.
func TestRequestLogConnectErrorsSayTheirOwnTime(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go func() { // one response, then no listener: every dial after it is refused
				c, err := ln.Accept()
				ln.Close()
				if err != nil {
					return
				}
				defer c.Close()
				buf := make([]byte, 4096)
				if _, err := c.Read(buf); err == nil {
					c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")) //nolint:errcheck // the test reads the log
				}
			}()
			l, stop := startLog(t, false)
			u, _ := url.Parse("http://" + ln.Addr().String() + "/")
			_, err = Run(t.Context(), Config{URL: u, Engine: engine, Connections: 1, Threads: 1,
				Duration: 400 * time.Millisecond, Timeout: time.Second, RequestLog: l})
			if err != nil {
				t.Fatal(err)
			}
			lines := stop()
			first := -1.0
			connects := map[float64]bool{}
			for _, line := range lines[1:] {
				sent, err := strconv.ParseFloat(line[0], 64)
				if err != nil {
					t.Fatalf("line %q: %v", line, err)
				}
				switch line[3] {
				case "":
					first = sent
				case "connect":
					connects[sent] = true
				}
			}
			if first < 0 || len(connects) < 2 {
				t.Fatalf("%d lines: want the response and connect errors at two times or more (%v)", len(lines)-1, lines)
			}
			for sent := range connects {
				if sent <= first {
					t.Errorf("a connect error's line says sent at %v µs, not after the response's request (%v µs)", sent, first)
				}
			}
		})
	}
}
