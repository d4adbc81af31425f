package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/export"
	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

// One load in three parts (three processes, as three machines, sharing an
// absolute --start-at), each exporting to a real Prometheus: Debian's
// 2.42, started by the test on a loopback port with a data directory of
// its own. After the run, Prometheus' own queries answer the merged
// result's figures: the requests and each error class exactly, by status
// class too, the bytes, and the p99 within a native bucket. The warm-up
// is in none of them.
func TestExportToARealPrometheusAgreesWithTheMergedResult(t *testing.T) {
	prom := startPrometheus(t)
	bin := pummelBinary(t)
	srv := fixture.New(t, fixture.Behaviour{Status: []int{200, 200, 200, 503, 200, 404, 200, 200, 200, 200}})
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	outs := runParts(ctx, t, bin, 3, []string{"-c", "6", "-t", "1", "-R", "900", "-d", "3s", "--warmup", "500ms", "--timeout", "5s",
		"--export", "prometheus=" + prom + "/api/v1/write", "--export-label", "test=shards",
		"--pid", strconv.Itoa(os.Getpid()), srv.URL()}) // the test serves the load: watch it as the server
	merged := mergeParts(ctx, t, bin, outs)
	if merged.Export == nil || merged.Latency == nil {
		t.Fatalf("merged: export %+v, latency %+v", merged.Export, merged.Latency)
	}
	run := merged.Export.Run
	for i, out := range outs {
		var part stats.Result
		if err := json.Unmarshal(out, &part); err != nil {
			t.Fatal(err)
		}
		if e := part.Export; e == nil || e.Run != run || e.Dropped != 0 || e.Sinks[0].Failures != 0 {
			t.Fatalf("part %d: export %+v, want run %s, all delivered", i, part.Export, run)
		}
	}
	if merged.Requests < 2000 || merged.Errors.Status == 0 {
		t.Fatalf("merged: %d requests, %d status errors: want a load with errors to count", merged.Requests, merged.Errors.Status)
	}
	sel := fmt.Sprintf(`run=%q, test="shards"`, run)
	q := func(query string) float64 { return promScalar(t, prom, fmt.Sprintf(query, sel)) }

	if got := q("count(count by (shard) (pummel_requests_total{%s}))"); got != 3 {
		t.Errorf("%v shards in Prometheus, want 3", got)
	}
	exact := []struct {
		query string
		want  int64
	}{
		{"sum(pummel_requests_total{%s})", merged.Requests},
		{"histogram_count(sum(pummel_request_duration_seconds{%s}))", merged.Requests},
		{"sum(pummel_sent_bytes_total{%s})", merged.BytesWritten},
		{"sum(pummel_received_bytes_total{%s})", merged.BytesRead},
	}
	for class, want := range map[string]int64{"connect": merged.Errors.Connect, "read": merged.Errors.Read, "write": merged.Errors.Write,
		"timeout": merged.Errors.Timeout, "status": merged.Errors.Status, "validation": merged.Errors.Validation} {
		exact = append(exact, struct {
			query string
			want  int64
		}{`sum(pummel_errors_total{%s, class="` + class + `"})`, want})
	}
	byClass := map[string]int64{}
	for code, n := range merged.Status {
		byClass[code[:1]+"xx"] += n
	}
	for _, class := range []string{"2xx", "4xx", "5xx"} {
		exact = append(exact, struct {
			query string
			want  int64
		}{`sum(pummel_requests_total{%s, status_class="` + class + `"})`, byClass[class]})
	}
	for _, e := range exact {
		if got := q(e.query); got != float64(e.want) {
			t.Errorf("%s = %v, the merged result's %d", fmt.Sprintf(e.query, sel), got, e.want)
		}
	}
	// HdrHistogram's p99 lies in the native bucket of its bucket's
	// highest value; Prometheus 2.42 interpolates within that bucket.
	// Allowed: one native bucket, and one of HdrHistogram's (the result
	// clamps its percentiles to the exact extremes recorded).
	want := merged.Latency.P99 / 1e6
	got := q("histogram_quantile(0.99, sum(pummel_request_duration_seconds{%s}))")
	if d := math.Abs(got/want - 1); d > export.BucketWidth+1e-3 {
		t.Errorf("histogram_quantile(0.99) = %.6fs, the merged p99 %.6fs: %.3f%% apart, want within %.3f%%", got, want, 100*d, 100*(export.BucketWidth+1e-3))
	} else {
		t.Logf("p99: Prometheus %.6fs, result %.6fs, %.3f%% apart", got, want, 100*d)
	}
	dashboardQueries(t, prom, run, merged.Requests)
	classicHistograms(ctx, t, prom, bin, srv.URL())
}

// dashboardQueries runs every query of the Grafana dashboard
// (deploy/grafana/pummel.json) against the run: Prometheus takes each,
// each answers at least one series (the run is open loop and watches a
// server, so every panel has something to draw), and its Requests panel
// reads the result's requests.
func dashboardQueries(t *testing.T, prom, run string, requests int64) {
	raw, err := os.ReadFile("../../deploy/grafana/pummel.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	fill := strings.NewReplacer("$run", run, "$__rate_interval", "1m")
	for _, p := range d.Panels {
		for _, q := range p.Targets {
			expr := fill.Replace(q.Expr)
			if n := promCount(t, prom, expr); n == 0 {
				t.Errorf("the dashboard's %s: %s answers nothing", p.Title, expr)
			}
			if p.Title == "Requests" && promScalar(t, prom, expr) != float64(requests) {
				t.Errorf("the dashboard's Requests: %s = %v, want %d", expr, promScalar(t, prom, expr), requests)
			}
		}
	}
}

// classicHistograms: for a server without native histograms, the
// latency goes as classic buckets, which Prometheus takes too.
func classicHistograms(ctx context.Context, t *testing.T, prom, bin, target string) {
	cmd := exec.CommandContext(ctx, bin, "-c", "2", "-n", "500", "--format", "json", "-q", "--export", "prometheus="+prom,
		"--export-histograms", "classic", "--export-label", "run=classic-1", target)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("classic: %v", err)
	}
	var res stats.Result
	if err := json.Unmarshal(out, &res); err != nil || res.Export == nil || res.Export.Dropped != 0 || res.Export.Run != "classic-1" {
		t.Fatalf("classic: %v, export %+v", err, res.Export)
	}
	for _, query := range []string{`sum(pummel_request_duration_seconds_count{run="classic-1"})`,
		`sum(pummel_request_duration_seconds_bucket{run="classic-1", le="+Inf"})`, `sum(pummel_requests_total{run="classic-1"})`} {
		if got := promScalar(t, prom, query); got != float64(res.Requests) {
			t.Errorf("%s = %v, the result's requests %d", query, got, res.Requests)
		}
	}
}

// mergeParts merges the parts' printed results with `pummel report
// --parallel -`, reading them from its standard input.
func mergeParts(ctx context.Context, t *testing.T, bin string, outs [][]byte) stats.Result {
	t.Helper()
	report := exec.CommandContext(ctx, bin, "report", "--parallel", "--format", "json", "-")
	report.Stdin = bytes.NewReader(bytes.Join(outs, nil))
	var stderr bytes.Buffer
	report.Stderr = &stderr
	out, err := report.Output()
	if err != nil {
		t.Fatalf("report: %v: %s", err, stderr.String())
	}
	var merged stats.Result
	if err := json.Unmarshal(out, &merged); err != nil {
		t.Fatalf("merged result: %v", err)
	}
	return merged
}

// startPrometheus starts Prometheus on a free loopback port, receiving
// remote write and storing native histograms in a data directory of its
// own, and returns its base URL; it is stopped by its pid at the end of
// the test.
func startPrometheus(t *testing.T) string {
	t.Helper()
	bin := prometheusBinary(t)
	dir := t.TempDir()
	config := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(config, []byte("global:\n  scrape_interval: 15s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := fixture.FreeAddr(t)
	log, err := os.Create(filepath.Join(dir, "prometheus.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config.file="+config, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--web.enable-remote-write-receiver", "--enable-feature=native-histograms")
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	t.Cleanup(func() {
		syscall.Kill(pid, syscall.SIGTERM) //nolint:errcheck // it may have exited
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }() //nolint:errcheck // stopped on purpose
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(pid, syscall.SIGKILL) //nolint:errcheck // it may have exited
			<-done
		}
		log.Close()
	})
	base := "http://" + addr
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		resp, err := http.Get(base + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		if time.Now().After(deadline) {
			logged, _ := os.ReadFile(log.Name())
			t.Fatalf("prometheus not ready after 30 s: %v\n%s", err, logged)
		}
	}
}

var (
	installOnce sync.Once
	installErr  error
)

// prometheusBinary finds Prometheus, installing Debian's package when it
// is missing (CI installs it beforehand: .ci/run). The test is skipped
// only when it cannot be installed: not root, no apt-get, no mirror.
func prometheusBinary(t *testing.T) string {
	if p, err := exec.LookPath("prometheus"); err == nil {
		return p
	}
	installOnce.Do(func() { installErr = installPrometheus() })
	if installErr != nil {
		t.Skipf("prometheus is not installed and cannot be: %v", installErr)
	}
	p, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skipf("apt-get installed prometheus, but it is not on PATH: %v", err)
	}
	return p
}

func installPrometheus() error {
	if os.Geteuid() != 0 {
		return fmt.Errorf("apt-get install prometheus needs root")
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		return err
	}
	install := func() ([]byte, error) {
		cmd := exec.Command("apt-get", "install", "-y", "--no-install-recommends", "prometheus")
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		return cmd.CombinedOutput()
	}
	out, err := install()
	if err != nil { // perhaps no package lists yet
		exec.Command("apt-get", "update").Run() //nolint:errcheck // the install says whether it helped
		out, err = install()
	}
	if err != nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		return fmt.Errorf("apt-get install prometheus: %v: %s", err, lines[len(lines)-1])
	}
	return nil
}

// promResult is an instant query's answer: a vector.
type promResult struct {
	Status string `json:"status"`
	Error  string `json:"error"`
	Data   struct {
		Result []struct {
			Value [2]any `json:"value"`
		} `json:"result"`
	} `json:"data"`
}

// promQuery runs an instant query through Prometheus' HTTP API; a query
// it refuses fails the test.
func promQuery(t *testing.T, base, query string) promResult {
	t.Helper()
	resp, err := http.Get(base + "/api/v1/query?" + url.Values{"query": {query}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body promResult
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.Status != "success" {
		t.Fatalf("%s: %v %s %s", query, err, body.Status, body.Error)
	}
	return body
}

// promCount is how many series an instant query answers.
func promCount(t *testing.T, base, query string) int {
	t.Helper()
	return len(promQuery(t, base, query).Data.Result)
}

// promScalar runs an instant query and returns its one value.
func promScalar(t *testing.T, base, query string) float64 {
	t.Helper()
	body := promQuery(t, base, query)
	if len(body.Data.Result) != 1 {
		t.Fatalf("%s: %d results, want 1", query, len(body.Data.Result))
	}
	s, _ := body.Data.Result[0].Value[1].(string)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%s: value %v", query, body.Data.Result[0].Value)
	}
	return v
}
