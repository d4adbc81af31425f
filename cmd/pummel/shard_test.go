package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

func TestShardFlagsBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // must appear in the one line
	}{
		{"index past the count", []string{"--shard", "3/3"}, "--shard"},
		{"negative index", []string{"--shard", "-1/3"}, "--shard"},
		{"no count", []string{"--shard", "1"}, "--shard"},
		{"zero parts", []string{"--shard", "0/0"}, "--shard"},
		{"two billion parts", []string{"--shard", "0/2000000000", "-c", "2000000000"}, "--shard: 0/2000000000: a load splits into at most 10000 parts"},
		{"two billion parts, default -c", []string{"--shard", "0/2000000000"}, "at most 10000 parts"},
		{"an index Kubernetes did not fill in", []string{"--shard", "$(JOB_COMPLETION_INDEX)/3"}, "Indexed Job"},
		{"more parts than connections", []string{"--shard", "0/3", "-c", "2"}, "--shard: "},
		{"threads over the part's connections", []string{"--shard", "1/3", "-c", "6", "-t", "3"}, "-t/--threads: 3 threads for the 2 connections of shard 1/3"},
		{"start not a time", []string{"--start-at", "noon"}, "--start-at"},
		{"start offset not a duration", []string{"--start-at", "+soon"}, "--start-at"},
		{"start passed", []string{"--start-at", "2020-01-01T00:00:00Z"}, "--start-at: the start time passed"},
		{"one start for several runs", []string{"--start-at", "+1h", "--exec", "true", "--runs", "2"}, "--start-at"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := pummel(t.Context(), append(tt.args, "http://127.0.0.1:1/")...)
			if code != exitUsage || stdout != "" {
				t.Errorf("exit %d, stdout %q; want %d and nothing", code, stdout, exitUsage)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q: want one line naming %q", stderr, tt.want)
			}
		})
	}
}

func TestParseStartAt(t *testing.T) {
	now := time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
	}{
		{"+30s", now.Add(30 * time.Second)},
		{"+30", now.Add(30 * time.Second)},
		{"+1m", now.Add(time.Minute)},
		{"2026-12-01T15:05:00Z", now.Add(5 * time.Minute)},
		{"2026-12-01T16:05:00.5+01:00", now.Add(5*time.Minute + 500*time.Millisecond)},
	}
	for _, tt := range tests {
		got, err := parseStartAt(tt.in, now)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("parseStartAt(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// The default -t counts the connections this part holds, not -c: one
// part of -c 3 over 3 holds one.
func TestDefaultThreadsFitThePart(t *testing.T) {
	o := options{connections: "3", shard: "2/3", timeout: "2s", pipeline: "1", maxBody: defaultMaxBody, engine: engine.EngineAuto, target: "http://127.0.0.1:1/"}
	c, err := o.config(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if c.Threads != 1 || c.Connections != 3 || c.Shard != (engine.Shard{Index: 2, Count: 3}) {
		t.Errorf("threads %d, connections %d, shard %+v; want 1 thread for the part's 1 of 3 connections", c.Threads, c.Connections, c.Shard)
	}
}

func TestAPartSaysWhichItIsAndWhenItStarted(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	script := filepath.Join(t.TempDir(), "shard.lua")
	if err := os.WriteFile(script, []byte(`wrk.path = "/part/" .. wrk.shard.index .. "-of-" .. wrk.shard.count`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := pummel(t.Context(), "--shard", "1/2", "--start-at", "+100ms", "-c", "2", "-n", "11",
		"-s", script, "--format", "json", srv.URL())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res stats.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Shard == nil || *res.Shard != (stats.Shard{Index: 1, Count: 2}) || res.Requests != 5 || srv.Requests() != 5 {
		t.Errorf("shard %v, %d requests (server %d); want part 1/2 with its 5 of 11", res.Shard, res.Requests, srv.Requests())
	}
	start, errStart := time.Parse(time.RFC3339Nano, res.Start)
	planned, errPlanned := time.Parse(time.RFC3339Nano, res.StartAt)
	if errStart != nil || errPlanned != nil || start.Before(planned) {
		t.Errorf("start %q, planned %q: want the actual start at or after the planned one", res.Start, res.StartAt)
	}
	if got := string(srv.LastRequest()); !strings.HasPrefix(got, "GET /part/1-of-2 ") {
		t.Errorf("request %q: the script saw another wrk.shard", got)
	}
}

// A setting the engine refuses only at Run, as a --start-at that passed
// while --exec waited for the server, names its flag as at parse.
func TestLoadErrorNamesTheFlag(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&engine.SettingError{Setting: "start-at", Msg: "the start time passed more than a second ago"}, "--start-at: the start time passed more than a second ago"},
		{fmt.Errorf("run: %w", &engine.SettingError{Setting: "shard", Msg: "1/0"}), "--shard: 1/0"},
		{&engine.SettingError{Setting: "unheard-of", Msg: "no"}, "unheard-of: no"},
	}
	for _, tt := range tests {
		err := loadError(t.Context(), tt.err)
		var usage usageError
		if !errors.As(err, &usage) || usage.msg != tt.want {
			t.Errorf("loadError(%v) = %#v, want the usage error %q", tt.err, err, tt.want)
		}
	}
}

// TestReportRefusesPartsWithOtherRequests runs two parts of a load whose
// bodies differ but have one length: report --parallel refuses them with
// one line naming both files; parts with one body merge.
func TestReportRefusesPartsWithOtherRequests(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	dir := t.TempDir()
	part := func(i int, body string) string {
		t.Helper()
		path := filepath.Join(dir, fmt.Sprintf("part%d-%s.json", i, body))
		code, _, stderr := pummel(t.Context(), "--shard", fmt.Sprintf("%d/2", i), "-c", "2", "-n", "4", "-b", body, "-q", "-o", path, srv.URL())
		if code != 0 {
			t.Fatalf("part %d: exit %d: %s", i, code, stderr)
		}
		return path
	}
	a, b, same := part(0, "aaaa"), part(1, "bbbb"), part(1, "aaaa")
	code, _, stderr := pummel(t.Context(), "report", "--parallel", a, b)
	if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "different requests") ||
		!strings.Contains(stderr, a) || !strings.Contains(stderr, b) {
		t.Errorf("exit %d, stderr %q: want 2 and one line naming %s and %s and that their requests differ", code, stderr, a, b)
	}
	if code, _, stderr := pummel(t.Context(), "report", "--parallel", a, same); code != 0 {
		t.Errorf("parts with one body: exit %d: %s", code, stderr)
	}
}
