package main

import (
	"compress/gzip"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

// TestLogRequests: -n 500 against a server that resets one request in
// four writes a line per response and per error, plain or gzipped, and
// the result says how many.
func TestLogRequests(t *testing.T) {
	for _, name := range []string{"requests.csv", "requests.csv.gz"} {
		t.Run(name, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{ResetAfterResponses: 3})
			dir := t.TempDir()
			logPath, resPath := filepath.Join(dir, name), filepath.Join(dir, "result.json")
			code, _, stderr := pummel(t.Context(), "-c", "4", "-t", "2", "-n", "500", "-q", "--log-requests", logPath, "-o", resPath, srv.URL())
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			res := readJSONFile[stats.Result](t, resPath)
			lines := readLog(t, logPath)
			if lines[0][0] != "sent_us" || res.Errors.Read == 0 {
				t.Fatalf("header %q, errors %+v: want a header and some read errors", lines[0], res.Errors)
			}
			want := res.Requests + res.Errors.Total()
			if int64(len(lines)-1) != want || res.RequestLog == nil || *res.RequestLog != (stats.RequestLog{Lines: want}) {
				t.Errorf("%d lines, request_log %+v; want %d: %d responses and %d errors", len(lines)-1, res.RequestLog, want, res.Requests, res.Errors.Total())
			}
			for _, f := range lines[1:] {
				if (f[2] == "") != (f[3] == "read") {
					t.Fatalf("line %q: an error has its class and no status, a response a status", f)
				}
			}
		})
	}
}

// readLog reads a request log, gunzipping a .gz one.
func readLog(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			t.Fatal(err)
		}
	}
	lines, err := csv.NewReader(r).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestLogRequestsRefusesRuns: --runs would mix several runs' requests
// in one log.
func TestLogRequestsRefusesRuns(t *testing.T) {
	code, _, stderr := pummel(t.Context(), "--log-requests", filepath.Join(t.TempDir(), "r.csv"), "--exec", "true", "--runs", "2", "http://127.0.0.1:1/")
	if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--log-requests") {
		t.Errorf("exit %d, stderr %q: want 2 and one line naming --log-requests", code, stderr)
	}
}
