package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
	"github.com/urfave/cli/v2"
)

// writeTargets writes a targets file into the test's directory.
func writeTargets(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "targets.txt")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBadTargetsExitTwoNamingTheLine(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"bad line", "GET http://127.0.0.1:1/\n\nGET\n", "targets.txt:3: "},
		{"missing body file", "GET http://127.0.0.1:1/\n\nPOST http://127.0.0.1:1/x\nX-A: 1\n@/nonexistent/pummel-body\n", "targets.txt:5: body file"},
		{"foreign host", "GET http://127.0.0.1:1/\n\nGET http://127.0.0.2:1/\n", "targets.txt:3: http://127.0.0.2:1 is not on"},
		{"bad header", "GET http://127.0.0.1:1/\nTransfer-Encoding: chunked\n", "targets.txt:1: header Transfer-Encoding"},
	}
	for _, tt := range tests {
		path := writeTargets(t, tt.text)
		code, stdout, stderr := pummel(t.Context(), "--targets", path, "-n", "1")
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--targets: ") ||
			!strings.Contains(stderr, tt.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 and one line with %q", tt.name, code, stdout, stderr, tt.want)
		}
	}
	path := writeTargets(t, "GET http://127.0.0.1:1/\n")
	for _, args := range [][]string{
		{"--targets", path, "-n", "1", "http://127.0.0.1:1/"},
		{"--targets", path, "-n", "1", "-s", writeTargets(t, "")},
		{"--targets", "/nonexistent/targets", "-n", "1"},
	} {
		code, _, stderr := pummel(t.Context(), args...)
		if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--targets") {
			t.Errorf("%q: exit %d, stderr %q; want 2 naming --targets", args, code, stderr)
		}
	}
	for _, args := range [][]string{ // a target the load does not have, found before it
		{"--targets", path, "-n", "1", "--threshold", "p99{target=2}<1s"},
		{"--targets", path, "-n", "1", "--threshold", "p99{target=login}<1s"},
		{"-n", "1", "--threshold", "p99{target=1}<1s", "http://127.0.0.1:1/"},
	} {
		code, stdout, stderr := pummel(t.Context(), args...)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--threshold") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 naming --threshold before any load", args, code, stdout, stderr)
		}
	}
}

func TestTargetsFromStdinTakeTheDefaults(t *testing.T) {
	o := options{targetsFile: "-", stdin: strings.NewReader(`{"url":"http://h/a","header":{"X-A":["own"]}}` + "\n"),
		method: "PUT", body: "b", requests: "1", connections: "1", threads: "1", timeout: "1s", pipeline: "1", maxBody: defaultMaxBody, engine: engine.EngineAuto,
		headers: *cli.NewStringSlice("X-A: default", "X-B: default")}
	c, err := o.config(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	tg := c.Targets[0]
	if c.URL.String() != "http://h/a" || tg.Method != "PUT" || string(tg.Body) != "b" || len(tg.Headers) != 2 ||
		tg.Headers[0].Name != "X-B" || tg.Headers[1].Value != "own" {
		t.Fatalf("URL %s, target %+v", c.URL, tg)
	}
}

func TestTargetsLoadCountsEachTarget(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	base := strings.TrimSuffix(srv.URL(), "/")
	body := filepath.Join(t.TempDir(), "body")
	if err := os.WriteFile(body, []byte("x=1"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := writeTargets(t, "GET "+base+"/a\n\n# weight 3\n# name login\nPOST "+base+"/b\n@"+body+"\n\nGET "+base+"/c\n# weight 6\n")
	code, stdout, stderr := pummel(t.Context(), "--targets", path, "-c", "4", "-n", "1000", "--format", "json", "-q",
		"--threshold", "status_2xx{target=login}==300", "--threshold", "errors{target=3}==0")
	var res stats.Result
	if err := json.Unmarshal([]byte(stdout), &res); code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s", code, err, stderr)
	}
	paths := srv.Paths()
	for i, want := range []int64{100, 300, 600} {
		tr := res.Targets[i]
		p := "/" + string(rune('a'+i))
		if tr.Requests != want || paths[p] != want || tr.URL != base+p {
			t.Errorf("target %d: %d requests at %s, the server saw %d; want %d", i+1, tr.Requests, tr.URL, paths[p], want)
		}
	}
	if len(res.Thresholds) != 2 || !res.Thresholds[0].OK || !res.Thresholds[1].OK {
		t.Errorf("thresholds %+v", res.Thresholds)
	}
	if res.Targets[1].Name != "login" || res.Targets[1].Method != "POST" {
		t.Errorf("target 2 = %+v", res.Targets[1])
	}
}

func TestDryRunListsTheTargets(t *testing.T) {
	path := writeTargets(t, "GET http://u:hunter2@127.0.0.1:1/\n\n# weight 3\n# name login\nPOST http://127.0.0.1:1/login\n")
	code, stdout, stderr := pummel(t.Context(), "--dry-run", "--targets", path, "-n", "1")
	if code != exitOK || !strings.Contains(stdout, "Target 2 login (weight 3): POST http://127.0.0.1:1/login\n") ||
		!strings.Contains(stdout, "Target 1 (weight 1): GET http://REDACTED@127.0.0.1:1/\n") || strings.Contains(stdout, "hunter2") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestAFileOfThousandsOfTargets: 5,000 unnamed targets share the row
// "unnamed", which thresholds select by name or place; each target still
// gets its exact share of -n.
func TestAFileOfThousandsOfTargets(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	base := strings.TrimSuffix(srv.URL(), "/")
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "GET %s/?i=%d\n", base, i)
	}
	path := writeTargets(t, b.String())
	code, stdout, stderr := pummel(t.Context(), "--targets", path, "-c", "4", "-n", "10000", "--format", "json", "-q",
		"--threshold", "status_2xx{target=unnamed}==10000", "--threshold", "errors{target=1}==0")
	var res stats.Result
	if err := json.Unmarshal([]byte(stdout), &res); code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s", code, err, stderr)
	}
	if len(res.Targets) != 1 || res.Targets[0].Name != "unnamed" || res.Targets[0].Requests != 10000 ||
		res.Targets[0].Members != 5000 || res.Targets[0].URL != base+"/?i=0" {
		t.Fatalf("rows %+v", res.Targets)
	}
	if !strings.Contains(stdout, `"targets": 5000`) {
		t.Errorf("the row's JSON lacks its count of targets: %s", stdout)
	}
	paths := srv.Paths()
	for i := range 5000 {
		if n := paths[fmt.Sprintf("/?i=%d", i)]; n != 2 {
			t.Fatalf("/?i=%d: the server saw %d requests, want 2", i, n)
		}
	}
	if len(res.Thresholds) != 2 || !res.Thresholds[0].OK || !res.Thresholds[1].OK {
		t.Errorf("thresholds %+v", res.Thresholds)
	}
	code, stdout, _ = pummel(t.Context(), "--dry-run", "--targets", path, "-n", "1")
	if want := "Target 1 unnamed (weight 5000): GET " + base + "/?i=0 (+4,999 more)\n"; code != exitOK || !strings.Contains(stdout, want) {
		t.Errorf("dry run: exit %d, stdout %q; want %q", code, stdout, want)
	}
}

func TestMoreThanAHundredNamesExitTwo(t *testing.T) {
	var b strings.Builder
	for i := range 101 {
		fmt.Fprintf(&b, "# name n%d\nGET http://127.0.0.1:1/%d\n\n", i, i)
	}
	code, stdout, stderr := pummel(t.Context(), "--targets", writeTargets(t, b.String()), "-n", "1")
	if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "targets.txt:301: ") ||
		!strings.Contains(stderr, "more than 100 names") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 and one line naming targets.txt:301", code, stdout, stderr)
	}
}

// TestTargetBodyFilesStopAtMaxBody: a target's @file is read no further
// than --max-body, as --body-file is: an endless one (/dev/zero) or one
// over the limit is one line naming the targets file, the line and the
// body file, exit 2 before any load; one of exactly the limit is sent.
func TestTargetBodyFilesStopAtMaxBody(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	dir := t.TempDir()
	big, exact := filepath.Join(dir, "big.bin"), filepath.Join(dir, "exact.bin")
	if err := errors.Join(os.WriteFile(big, make([]byte, 2000), 0o600), os.WriteFile(exact, []byte("abcd"), 0o600)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		body    string
		maxBody string // "" for the default
		want    string // the request's body; "" when refused
	}{
		{"endless", "/dev/zero", "", ""},
		{"endless, small limit", "/dev/zero", "1MiB", ""},
		{"over the limit", big, "1k", ""},
		{"exactly the limit", exact, "4", "abcd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeTargets(t, "GET "+srv.URL()+"\n\nPOST "+srv.URL()+"x\n@"+tt.body+"\n")
			args := []string{"--targets", path, "-n", "2", "-c", "1"}
			if tt.maxBody != "" {
				args = append(args, "--max-body", tt.maxBody)
			}
			before := srv.Requests()
			code, _, stderr := pummelBounded(t, t.Context(), args...)
			if tt.want != "" {
				if last := string(srv.LastRequest()); code != exitOK || !strings.HasSuffix(last, "\r\n\r\n"+tt.want) {
					t.Errorf("exit %d, last request %q: want 0 and the body %q\n%s", code, last, tt.want, stderr)
				}
				return
			}
			limit := cmp.Or(tt.maxBody, defaultMaxBody)
			want := fmt.Sprintf("--targets: %s:4: body file: %s holds more than --max-body %s", path, tt.body, limit)
			if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, want) || srv.Requests() != before {
				t.Errorf("exit %d, stderr %q, %d requests: want 2, none, and one line with %q", code, stderr, srv.Requests()-before, want)
			}
		})
	}
}

// TestTargetsFileIsBounded: a --targets file that never ends is refused
// with one line and exit 2 once it passes maxTargetsFile, before any
// load, rather than read until the machine runs out of memory.
func TestTargetsFileIsBounded(t *testing.T) {
	code, stdout, stderr := pummelBounded(t, t.Context(), "--targets", "/dev/zero", "-n", "1")
	want := "--targets: /dev/zero holds more than 256 MiB: split the list"
	if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, want) || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q: want 2 and one line with %q", code, stdout, stderr, want)
	}
}
