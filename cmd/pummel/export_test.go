package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/snappy"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

// pushes is a remote-write endpoint that answers every push with status
// and keeps the decompressed bodies.
type pushes struct {
	mu     sync.Mutex
	status int
	bodies [][]byte
}

func (p *pushes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	raw, err := snappy.Decode(nil, body)
	p.mu.Lock()
	p.bodies = append(p.bodies, raw)
	status := p.status
	p.mu.Unlock()
	if err != nil {
		status = http.StatusBadRequest
	}
	w.WriteHeader(status)
}

func (p *pushes) count() int { p.mu.Lock(); defer p.mu.Unlock(); return len(p.bodies) }

func startPushes(t *testing.T, status int) (*pushes, string) {
	p := &pushes{status: status}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return p, srv.URL + "/api/v1/write"
}

func TestExportBadInputExitsTwo(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown sink", []string{"--export", "foo=http://127.0.0.1:9/"}, `--export: "foo" is not KIND=URL: the kinds are prometheus`},
		{"no kind", []string{"--export", "http://127.0.0.1:9/"}, "--export: "},
		{"no kind, an = in the URL", []string{"--export", "u:s3cret@127.0.0.1:9/w?x=1"}, "--export: the argument is not KIND=URL"},
		{"bad URL", []string{"--export", "prometheus=ftp://u:s3cret@127.0.0.1:9/"}, `--export: prometheus: the scheme is "ftp"`},
		{"no URL", []string{"--export", "prometheus="}, "--export: prometheus= needs a URL"},
		{"bad label", []string{"--export", "prometheus=http://127.0.0.1:9/", "--export-label", "a-b=c"}, "--export-label: "},
		{"label pummel sets", []string{"--export", "prometheus=http://127.0.0.1:9/", "--export-label", "shard=2"}, "--export-label: \"shard\" is a label pummel sets itself"},
		{"label without value", []string{"--export", "prometheus=http://127.0.0.1:9/", "--export-label", "test"}, "--export-label: "},
		{"interval under a second", []string{"--export", "prometheus=http://127.0.0.1:9/", "--export-interval", "500ms"}, "--export-interval: 500ms: a whole number of seconds"},
		{"interval not whole", []string{"--export", "prometheus=http://127.0.0.1:9/", "--export-interval", "1.5s"}, "--export-interval"},
		{"bad histograms", []string{"--export", "prometheus=http://127.0.0.1:9/", "--export-histograms", "sparse"}, "--export-histograms"},
		{"label without --export", []string{"--export-label", "a=b"}, "--export-label: nothing to export without --export"},
		{"default interval without --export", []string{"--export-interval", "5s"}, "--export-interval: nothing to export without --export"},
		{"default histograms without --export", []string{"--export-histograms", "native"}, "--export-histograms: nothing to export without --export"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := pummel(t.Context(), append(tt.args, "-d", "1s", "http://127.0.0.1:1/")...)
			if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) || stdout != "" {
				t.Errorf("exit %d, stderr %q, stdout %q: want 2 and one line naming %q", code, stderr, stdout, tt.want)
			}
			if strings.Contains(stderr, "s3cret") {
				t.Errorf("the URL's password in %q", stderr)
			}
		})
	}
}

// TestExportPushesEverySecondAndTheEnd: the header names the run, the
// JSON keeps it with what was pushed, and the endpoint got every push:
// one at 0, one a second, the end.
func TestExportPushesEverySecondAndTheEnd(t *testing.T) {
	p, u := startPushes(t, http.StatusNoContent)
	code, stdout, stderr := pummel(t.Context(), "-c", "2", "-d", "2s", "--export", "prometheus="+u, "--export-label", "test=checkout",
		"--format", "json", "--progress", "always", targetURL(t))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res stats.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	e := res.Export
	if e == nil || len(e.Run) != 8 || e.Dropped != 0 || len(e.Sinks) != 1 || e.Sinks[0].Sink != "prometheus" || e.Sinks[0].URL != u {
		t.Fatalf("export %+v", e)
	}
	// A push may carry more than one point in time (a backlog, or the
	// point at 0 with the first second's).
	if got, pushed := int64(p.count()), e.Sinks[0].Pushed; got > pushed || pushed < 3 || pushed > 4 {
		t.Errorf("%d points in time pushed, in %d requests; want 3 or 4 for 2 s", pushed, got)
	}
	if !strings.Contains(stderr, "  Export: run "+e.Run+" to prometheus "+u+" every 1s\n") {
		t.Errorf("header without the run: %q", stderr)
	}
	last := p.bodies[len(p.bodies)-1]
	for _, want := range []string{"pummel_requests_total", "pummel_request_duration_seconds", e.Run, "checkout"} {
		if !bytes.Contains(last, []byte(want)) {
			t.Errorf("the last push lacks %q", want)
		}
	}
}

// TestExportHidesTheURLsSecrets: a remote-write URL's user name and
// password appear in no output, unless --show-secrets.
func TestExportHidesTheURLsSecrets(t *testing.T) {
	_, u := startPushes(t, http.StatusNoContent)
	withAuth := strings.Replace(u, "http://", "http://us3r-name:pa55word@", 1)
	args := []string{"-c", "1", "-n", "20", "--export", "prometheus=" + withAuth, "-q"}
	for _, format := range []string{"text", "json"} {
		_, stdout, stderr := pummel(t.Context(), append(args, "--format", format, targetURL(t))...)
		for _, secret := range []string{"pa55word", "us3r-name"} {
			if strings.Contains(stdout+stderr, secret) {
				t.Errorf("%s output shows %q:\n%s%s", format, secret, stdout, stderr)
			}
		}
	}
	_, stdout, _ := pummel(t.Context(), append(args, "--format", "json", "--show-secrets", targetURL(t))...)
	if !strings.Contains(stdout, withAuth) {
		t.Errorf("--show-secrets hid the export URL:\n%s", stdout)
	}
}

// TestExportToAPrometheusThatIsDown: the run ends on time, says in one
// warning what was not delivered, and counts it.
func TestExportToAPrometheusThatIsDown(t *testing.T) {
	down := "http://" + fixture.FreeAddr(t) + "/api/v1/write"
	start := time.Now()
	// 3 s: long enough for the back-off between failed pushes to reach
	// seconds, which the end of the run must not wait out.
	code, stdout, stderr := pummel(t.Context(), "-c", "1", "-d", "3s", "--export", "prometheus="+down, "--format", "json", "-q", targetURL(t))
	if d := time.Since(start); d > 3*time.Second+2*time.Second {
		t.Errorf("the run took %v", d)
	}
	var res stats.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || code != exitOK {
		t.Fatalf("exit %d, %v: %s", code, err, stderr)
	}
	if e := res.Export; e == nil || e.Dropped == 0 || e.Sinks[0].Pushed != 0 || !e.Sinks[0].Short || e.Sinks[0].LastError == "" {
		t.Errorf("export %+v", res.Export)
	}
	warnings := 0
	for _, w := range res.Warnings {
		if strings.HasPrefix(w, "--export prometheus "+down+": ") && strings.Contains(w, "not delivered") && strings.Contains(w, "fall short") {
			warnings++
		}
	}
	if warnings != 1 {
		t.Errorf("warnings %q, want one about the export", res.Warnings)
	}
}

// TestExportRefusedIsNotRetried: a Prometheus that answers 400 (out of
// order, say) gets each push once.
func TestExportRefusedIsNotRetried(t *testing.T) {
	p, u := startPushes(t, http.StatusBadRequest)
	code, stdout, stderr := pummel(t.Context(), "-c", "1", "-d", "1s", "--export", "prometheus="+u, "--format", "json", "-q", targetURL(t))
	var res stats.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || code != exitOK {
		t.Fatalf("exit %d, %v: %s", code, err, stderr)
	}
	s := res.Export.Sinks[0]
	if int64(p.count()) != s.Failures || s.Dropped < s.Failures || s.Pushed != 0 || !strings.HasPrefix(s.LastError, "HTTP 400") {
		t.Errorf("%d pushes received; sink %+v", p.count(), s)
	}
}

// TestExportWithAClosedStdout: a run whose stdout is gone still exports
// and ends. 2 s: the first second's push goes a second before the last
// (at 1 s they could leave as one).
func TestExportWithAClosedStdout(t *testing.T) {
	p, u := startPushes(t, http.StatusNoContent)
	var errOut bytes.Buffer
	code := run(t.Context(), []string{"-c", "1", "-d", "2s", "--export", "prometheus=" + u, targetURL(t)}, failingWriter{}, &errOut)
	if code != exitFailed || p.count() < 2 {
		t.Errorf("exit %d, %d pushes: %s", code, p.count(), errOut.String())
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

// TestSuiteExports: a plan's loads push, each under its operation, mode
// and run_index, and suite.json says what was pushed.
func TestSuiteExports(t *testing.T) {
	withPummelOnPath(t)
	p, u := startPushes(t, http.StatusNoContent)
	dir := t.TempDir()
	code, _, stderr := pummel(t.Context(), "suite", examplePlan, "-o", dir, "--runs", "1", "--export", "prometheus="+u, "--export-label", "plan=example")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rep := readResult(t, dir)
	if e := rep.Export; e == nil || e.Dropped != 0 || len(e.Sinks) != 1 || e.Sinks[0].Pushed == 0 || !strings.Contains(stderr, "Export: run "+e.Run) {
		t.Fatalf("export %+v; stderr %s", rep.Export, stderr)
	}
	all := bytes.Join(p.bodies, nil)
	for _, want := range []string{"operation", "empty", "bytes-1k", "mode", "fast", "slow", "run_index", "plan", "example"} {
		if !bytes.Contains(all, []byte(want)) {
			t.Errorf("no push holds %q", want)
		}
	}
}

// TestCapacityExports: each step of a search pushes under its step label.
func TestCapacityExports(t *testing.T) {
	p, u := startPushes(t, http.StatusNoContent)
	_, stdout, res := capacitySearch(t, "-c", "2", "-t", "1", "--step", "1s", "--to", "200", "--confirm", "0", "--max-steps", "2",
		"--threshold", "status_5xx==0", "--export", "prometheus="+u, targetURL(t))
	if e := res.Export; e == nil || e.Dropped != 0 || e.Sinks[0].Pushed < 4 {
		t.Fatalf("export %+v; stdout %s", res.Export, stdout)
	}
	all := bytes.Join(p.bodies, nil)
	for _, want := range []string{"step", "pummel_target_requests_per_second", res.Export.Run} {
		if !bytes.Contains(all, []byte(want)) {
			t.Errorf("no push holds %q", want)
		}
	}
}

// TestExportDryRun: --dry-run says where the figures would go, under
// which run, the URL's password redacted, and pushes nothing.
func TestExportDryRun(t *testing.T) {
	p, u := startPushes(t, http.StatusNoContent)
	withAuth := strings.Replace(u, "http://", "http://someone:pa55word@", 1)
	code, stdout, stderr := pummel(t.Context(), "--dry-run", "--export", "prometheus="+withAuth, "--export-label", "run=nightly", "--export-interval", "5s", "http://127.0.0.1:1/")
	want := "  Export: run nightly to prometheus " + strings.Replace(u, "http://", "http://REDACTED@", 1) + " every 5s\n"
	if code != exitOK || !strings.Contains(stdout, want) || strings.Contains(stdout, "pa55word") || p.count() != 0 {
		t.Errorf("exit %d, %d pushes, stdout %q (want %q), stderr %q", code, p.count(), stdout, want, stderr)
	}
}

// TestExportInterrupted: Ctrl-C ends the run, and its figures so far
// still reach Prometheus: the last push is delivered before the results
// are written.
func TestExportInterrupted(t *testing.T) {
	p, u := startPushes(t, http.StatusNoContent)
	ctx, cancel := context.WithTimeout(t.Context(), 1500*time.Millisecond)
	defer cancel()
	code, stdout, stderr := pummel(ctx, "-c", "2", "-d", "1m", "--export", "prometheus="+u, "--format", "json", "-q", targetURL(t))
	var res stats.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || code != exitInterrupted {
		t.Fatalf("exit %d, %v: %s", code, err, stderr)
	}
	if e := res.Export; e == nil || e.Dropped != 0 || e.Sinks[0].Pushed < 3 || int64(p.count()) > e.Sinks[0].Pushed {
		t.Errorf("export %+v, %d pushes received: want the point at 0, the first second and the end", res.Export, p.count())
	}
}
