package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/engine"
)

func TestProgressMode(t *testing.T) {
	tests := []struct {
		progress string
		quiet    bool
		want     string // "" for a usage error
	}{
		{progressAuto, false, progressAuto},
		{progressAlways, false, progressAlways},
		{progressNever, false, progressNever},
		{progressAuto, true, progressNever}, // -q is --progress never
		{progressNever, true, progressNever},
		{progressAlways, true, ""},
		{"sometimes", false, ""},
	}
	for _, tt := range tests {
		o := options{progress: tt.progress, quiet: tt.quiet}
		got, err := o.progressMode()
		if got != tt.want || (err != nil) != (tt.want == "") {
			t.Errorf("--progress %s, -q %v: %q, %v; want %q", tt.progress, tt.quiet, got, err, tt.want)
		}
	}
}

// TestProgressOffATerminal: a pipe gets plain lines only with always.
func TestProgressOffATerminal(t *testing.T) {
	var pipe bytes.Buffer
	for mode, plain := range map[string]bool{progressAuto: false, progressAlways: true, progressNever: false} {
		l := newProgress(&pipe, mode)
		if (l != nil) != plain || l != nil && (l.live || l.every != plainEvery) {
			t.Errorf("--progress %s on a pipe: %+v", mode, l)
		}
	}
}

func TestPlainProgressEveryTenSeconds(t *testing.T) {
	var out bytes.Buffer
	start := time.Unix(1000, 0)
	var now time.Time
	l := &progressLine{w: &out, every: plainEvery, now: func() time.Time { return now }}
	for _, at := range []time.Duration{250 * time.Millisecond, 5 * time.Second, 10 * time.Second, 10250 * time.Millisecond,
		15 * time.Second, 20500 * time.Millisecond, 29 * time.Second} {
		now = start.Add(at)
		l.show(engine.Progress{Elapsed: at, Planned: 30 * time.Second, Measured: at >= time.Second, Requests: int64(at / time.Millisecond), Rate: 1000,
			P50: time.Millisecond, P99: 3 * time.Millisecond})
	}
	want := "10.2s / 30s  10250 requests  1000 req/s  p50 1ms  p99 3ms  errors 0\n" +
		"20.5s / 30s  20500 requests  1000 req/s  p50 1ms  p99 3ms  errors 0\n"
	if out.String() != want {
		t.Errorf("plain progress:\n%q\nwant\n%q", out.String(), want)
	}
	l.clear() // nothing to clear: plain lines stay
	if out.String() != want {
		t.Errorf("clear wrote %q", strings.TrimPrefix(out.String(), want))
	}
}

func TestProgressText(t *testing.T) {
	tests := []struct {
		name string
		p    engine.Progress
		want string
	}{
		{"nothing measured yet", engine.Progress{Elapsed: 250 * time.Millisecond, Planned: 10 * time.Second, Requests: 310},
			"   0.2s / 10s  310 requests  - req/s  p50 -  p99 -  errors 0"},
		{"warming up", engine.Progress{Elapsed: -1500 * time.Millisecond, Warming: true, Warmup: 12, Limit: 500},
			"warming up  1.5s  12 warm-up requests  - req/s  p50 -  p99 -  errors 0"},
		{"warming up by count", engine.Progress{Warming: true, Warmup: 4000, Limit: 10000},
			"warming up  4000 warm-up requests  - req/s  p50 -  p99 -  errors 0"},
		{"after a warm-up by count: -n counts the measured requests", engine.Progress{Elapsed: 500 * time.Millisecond,
			Requests: 3108, Warmup: 10000, Limit: 10000},
			"   0.5s  3108 / 10000 requests  - req/s  p50 -  p99 -  errors 0"},
		{"a second measured", engine.Progress{Elapsed: 1250 * time.Millisecond, Requests: 4000, Measured: true, Rate: 3900,
			P50: 812 * time.Microsecond, P99: 2345678 * time.Nanosecond, Errors: 2},
			"   1.2s  4000 requests  3900 req/s  p50 812us  p99 2.346ms  errors 2"},
		{"a second with no response", engine.Progress{Elapsed: 3 * time.Second, Requests: 4000, Measured: true, Errors: 40},
			"   3.0s  4000 requests  0 req/s  p50 -  p99 -  errors 40"},
		{"open loop", engine.Progress{Elapsed: 2 * time.Second, Requests: 20, Measured: true, Rate: 10, TargetRate: 10, P50: time.Millisecond, P99: time.Millisecond},
			"   2.0s  20 requests  10 of 10 req/s  p50 1ms  p99 1ms  errors 0"},
	}
	for _, tt := range tests {
		if got := progressText(tt.p); got != tt.want {
			t.Errorf("%s:\n%q\nwant\n%q", tt.name, got, tt.want)
		}
	}
}

// TestProgressNeverSilencesStderr: with a JSON stdout the header goes to
// stderr, unless there must be no progress there.
func TestProgressNeverSilencesStderr(t *testing.T) {
	url := targetURL(t)
	for _, tt := range []struct {
		args   []string
		header bool
	}{
		{[]string{"--progress", "always"}, true},
		{[]string{"--progress", "never"}, false},
		{[]string{"-q"}, false},
	} {
		code, _, stderr := pummel(t.Context(), append([]string{"-c", "1", "-n", "20", "--format", "json", url}, tt.args...)...)
		if code != 0 || strings.HasPrefix(stderr, "Running 20 requests test @ ") != tt.header || !tt.header && stderr != "" {
			t.Errorf("%v: exit %d, stderr %q", tt.args, code, stderr)
		}
	}
}
