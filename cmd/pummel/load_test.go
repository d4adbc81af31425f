package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

// TestNoAnswerFailsTheRun pins the exit codes and outputs (README.md, docs/output.md): a run in which not one
// request was answered (here every request timed out) exits 1 with one
// line saying so, and shows its latency as absent, never as zeros.
func TestNoAnswerFailsTheRun(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{Stall: true})
	load := []string{"-c", "2", "-n", "4", "--timeout", "200ms", "-q"}
	for _, tt := range []struct {
		format string
		check  func(t *testing.T, stdout string)
	}{
		{"text", func(t *testing.T, stdout string) {
			// The latency line alone: "Connect time: … max 760.00us" holds "0.00us" too.
			_, rest, _ := strings.Cut(stdout, "    Latency")
			latency, _, _ := strings.Cut(rest, "\n")
			if !strings.Contains(stdout, "    Latency          -") || strings.Contains(latency, "0.00us") {
				t.Errorf("latency not shown as absent:\n%s", stdout)
			}
		}},
		{"json", func(t *testing.T, stdout string) {
			var doc map[string]any
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatalf("stdout is not one JSON document: %v\n%s", err, stdout)
			}
			if lat, ok := doc["latency_us"]; !ok || lat != nil {
				t.Errorf("latency_us = %v, want null", lat)
			}
		}},
	} {
		t.Run(tt.format, func(t *testing.T) {
			code, stdout, stderr := pummel(t.Context(), append(load, "--format", tt.format, srv.URL())...)
			if code != exitFailed || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "not one request was answered") {
				t.Errorf("exit %d, stderr %q: want 1 and one line saying no request was answered", code, stderr)
			}
			tt.check(t, stdout)
		})
	}
}

// syncBuffer is an output that a test may read while pummel writes it.
type syncBuffer struct {
	mu sync.Mutex // guards b
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestHeaderWrittenWhenTheLoadStarts pins docs/output.md: the "Running …" header
// and the threads line are written before the first request reaches the
// server, whatever stdout is (here not a terminal); with --format json
// they go to stderr and stdout holds the document alone, written once.
func TestHeaderWrittenWhenTheLoadStarts(t *testing.T) {
	for _, tt := range []struct {
		format  string
		onOut   bool // the header goes to stdout
		isWhole func(stdout string) error
	}{
		{"text", true, func(stdout string) error {
			if strings.Count(stdout, "Running ") != 1 || !strings.Contains(stdout, "2 requests in") {
				return errors.New("want the header once, then the figures")
			}
			return nil
		}},
		{"json", false, func(stdout string) error { return json.Unmarshal([]byte(stdout), new(map[string]any)) }},
	} {
		t.Run(tt.format, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{Delay: 300 * time.Millisecond})
			var stdout, stderr syncBuffer
			done := make(chan int, 1)
			go func() {
				done <- run(t.Context(), []string{"-c", "1", "-n", "2", "--format", tt.format, srv.URL()}, &stdout, &stderr)
			}()
			deadline := time.Now().Add(10 * time.Second)
			for srv.Requests() == 0 && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			early := stderr.String()
			if tt.onOut {
				early = stdout.String()
			}
			want := "Running 2 requests test @ " + srv.URL() + "\n  1 threads and 1 connections\n"
			if !strings.HasPrefix(early, want) {
				t.Errorf("when the first request arrived, the header's place held %q; want it to start with %q", early, want)
			}
			if code := <-done; code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			if err := tt.isWhole(stdout.String()); err != nil {
				t.Errorf("stdout: %v:\n%s", err, stdout.String())
			}
		})
	}
}

// TestWarmupThenCount: --warmup 1s -n 500 warms up for the time given,
// then sends exactly N (it was refused).
func TestWarmupThenCount(t *testing.T) {
	code, stdout, stderr := pummel(t.Context(), "--warmup", "300ms", "-n", "150", "-c", "2", "--format", "json", targetURL(t))
	var res stats.Result
	if code != 0 || json.Unmarshal([]byte(stdout), &res) != nil {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if res.Requests != 150 || res.Config.WarmupS != 0.3 || res.Config.Requests != 150 {
		t.Errorf("%d requests, config %+v: want 150 after a 0.3s warm-up", res.Requests, res.Config)
	}
	code, _, stderr = pummel(t.Context(), "--warmup", "1s", "--warmup-requests", "5", "-n", "10", "http://127.0.0.1:1/")
	if code != exitUsage || !strings.Contains(stderr, "not both") {
		t.Errorf("a warm-up time and count: exit %d, %q", code, stderr)
	}
}
