package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/suite"
)

// examplePlan is the plan shipped in scripts/.
var examplePlan = filepath.Join("..", "..", "scripts", "example-plan.yaml")

// withPummelOnPath puts the test's pummel binary first on $PATH, as the
// example plan runs `pummel serve`.
func withPummelOnPath(t *testing.T) {
	t.Helper()
	bin := pummelBinary(t)
	t.Setenv("PATH", filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// readResult reads DIR/suite.json.
func readResult(t *testing.T, dir string) suite.Result {
	t.Helper()
	return readJSONFile[suite.Result](t, filepath.Join(dir, "suite.json"))
}

func TestSuiteExamplePlan(t *testing.T) {
	withPummelOnPath(t)
	dir := t.TempDir()
	code, stdout, stderr := pummel(t.Context(), "suite", examplePlan, "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(stderr, "pummel suite: run "); n != 4 {
		t.Errorf("%d progress lines, want 4:\n%s", n, stderr)
	}
	rep := readResult(t, dir)
	var order []string
	for _, run := range rep.Runs {
		order = append(order, run.Mode)
		checkRun(t, run)
	}
	if got := strings.Join(order, " "); got != "fast slow fast slow" {
		t.Errorf("runs in order %q, want the modes interleaved", got)
	}
	if b := rep.Environment.Binary; b == nil || b.SizeBytes == 0 || len(b.SHA256) != 64 {
		t.Errorf("server binary %+v", b)
	}
	if len(rep.Summary.Operations) != 6 || rep.CheckFailures != 0 {
		t.Fatalf("%d operation summaries, %d check failures", len(rep.Summary.Operations), rep.CheckFailures)
	}
	fast, slow := rep.Summary.Operations[0], rep.Summary.Operations[1]
	if fast.Requests != 100 || slow.Requests != 100 || slow.Latency.P50 < 2000 || fast.Latency.P50 >= slow.Latency.P50 {
		t.Errorf("empty: fast %d requests, p50 %.0fus; slow %d, p50 %.0fus: want 2 × 50 each, slow ≥ 2ms (--delay=2ms)",
			fast.Requests, fast.Latency.P50, slow.Requests, slow.Latency.P50)
	}
	md, err := os.ReadFile(filepath.Join(dir, "suite.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## pummel serve example", "interleaved across modes (fast, slow, fast, slow, …)", "| fast | 2 |", "| slow | 2 |",
		"### empty", "### bytes-1k", "### created", "`POST http://127.0.0.1:{port}/status/201`", "**Environment:**", "**Server binary:**"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(stdout, "bytes-1k") || !strings.Contains(stdout, filepath.Join(dir, "suite.md")) {
		t.Errorf("summary:\n%s", stdout)
	}
}

// checkRun checks one run of the example plan: its figures, its samples,
// its operations, and that its server and temporary directory are gone.
func checkRun(t *testing.T, run suite.RunResult) {
	t.Helper()
	if run.StartupS <= 0 || run.IdleRSSBytes <= 0 || run.RSSAfterBytes <= 0 || run.Error != "" {
		t.Errorf("%s run %d: startup %v, idle %d, after %d, error %q", run.Mode, run.Run, run.StartupS, run.IdleRSSBytes, run.RSSAfterBytes, run.Error)
	}
	phases := map[string]int{}
	for _, s := range run.Samples {
		phases[s.Phase]++
	}
	if phases["idle"] < 5 || phases["operation empty"] < 2 || phases["after"] < 1 {
		t.Errorf("%s run %d: samples by phase %v", run.Mode, run.Run, phases)
	}
	if len(run.Operations) != 3 {
		t.Fatalf("%s run %d: %d operations", run.Mode, run.Run, len(run.Operations))
	}
	for _, op := range run.Operations {
		res := op.Result
		if res == nil || res.Requests == 0 || len(res.Server) != 1 || res.Server[0].RSSBytes.Peak <= 0 || res.LatencyHistogram == "" {
			t.Errorf("%s run %d, %s: %+v", run.Mode, run.Run, op.Name, res)
		}
	}
	if empty := run.Operations[0].Result; empty != nil && (empty.Requests != 50 || empty.Config.Connections != 1 || empty.Config.WarmupRequests != 10) {
		t.Errorf("empty: %d requests over %d connections after %d: want sequential 10 + 50", empty.Requests, empty.Config.Connections, empty.Config.WarmupRequests)
	}
	if !gone(run.PID) {
		t.Errorf("server pid %d still running", run.PID)
	}
	if _, err := os.Stat(run.Tmpdir); !os.IsNotExist(err) {
		t.Errorf("{tmpdir} %q left behind (%v)", run.Tmpdir, err)
	}
}

// planFrom is the example plan edited by replacing each old with new.
func planFrom(t *testing.T, replace ...string) string {
	t.Helper()
	src, err := os.ReadFile(examplePlan)
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	for i := 0; i+1 < len(replace); i += 2 {
		if !strings.Contains(text, replace[i]) {
			t.Fatalf("the example plan lacks %q", replace[i])
		}
		text = strings.Replace(text, replace[i], replace[i+1], 1)
	}
	path := filepath.Join(t.TempDir(), "plan.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSuiteFailedCheckExitsThreeAfterWriting(t *testing.T) {
	withPummelOnPath(t)
	t.Setenv("PUMMEL_TEST_TOKEN", "tok-9f8e7d")
	plan := planFrom(t, "runs: 2", "runs: 1",
		"  - name: slow\n    args: [--delay=2ms]\n", "",
		`      body_equals: ""`, "      body_contains: never-there\n    headers:\n      X-Api-Key: ${PUMMEL_TEST_TOKEN}",
		"url: http://127.0.0.1:{port}/bytes/1024", "url: http://127.0.0.1:{port}/bytes/1024?token=${PUMMEL_TEST_TOKEN}")
	dir := t.TempDir()
	code, stdout, stderr := pummel(t.Context(), "suite", "-q", plan, "-o", dir)
	if code != exitCondition || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "operation empty, mode fast: 50 of 50 responses failed a check") {
		t.Fatalf("exit %d, stderr %q: want 3 and one line", code, stderr)
	}
	rep := readResult(t, dir)
	if rep.CheckFailures != 50 || len(rep.Runs) != 1 {
		t.Fatalf("check failures %d, %d runs", rep.CheckFailures, len(rep.Runs))
	}
	ops := rep.Runs[0].Operations
	if ops[0].CheckFailures != 50 || ops[1].Result == nil || ops[2].Skipped == "" || ops[2].Result != nil {
		t.Errorf("operations %+v: want empty failing, bytes-1k run, created skipped", ops)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "suite.md"))
	js, _ := os.ReadFile(filepath.Join(dir, "suite.json"))
	for name, out := range map[string]string{"markdown": string(md), "json": string(js), "stdout": stdout, "stderr": stderr} {
		if strings.Contains(out, "tok-9f8e7d") {
			t.Errorf("the secret is in the %s", name)
		}
	}
	if !strings.Contains(string(md), `body lacks "never-there"`) || !strings.Contains(string(js), "${PUMMEL_TEST_TOKEN}") {
		t.Errorf("the markdown lacks the cause, or the JSON the plan as written")
	}
}

func TestSuiteInterruptedWritesWhatItHas(t *testing.T) {
	withPummelOnPath(t)
	ctx, cancel := context.WithTimeout(t.Context(), 1500*time.Millisecond)
	defer cancel()
	dir := t.TempDir()
	code, _, stderr := pummel(ctx, "suite", "-q", examplePlan, "-o", dir)
	if code != exitInterrupted {
		t.Fatalf("exit %d (%s), want %d", code, stderr, exitInterrupted)
	}
	rep := readResult(t, dir)
	if !rep.Interrupted || len(rep.Runs) == 0 || len(rep.Runs) == 4 {
		t.Errorf("interrupted %v after %d runs: want the runs until Ctrl-C", rep.Interrupted, len(rep.Runs))
	}
	for _, run := range rep.Runs {
		if run.PID != 0 && !gone(run.PID) {
			t.Errorf("server pid %d still running", run.PID)
		}
		if _, err := os.Stat(run.Tmpdir); !os.IsNotExist(err) {
			t.Errorf("{tmpdir} %q left behind", run.Tmpdir)
		}
	}
}

func TestSuiteServerNeverReady(t *testing.T) {
	sleep := uniqueSleep()
	plan := planFrom(t, `command: [pummel, serve, "--addr=127.0.0.1:{port}"]`, fmt.Sprintf("command: [sleep, '%s']", strings.TrimPrefix(sleep, "sleep ")),
		"timeout: 10s", "timeout: 300ms")
	dir := t.TempDir()
	began := time.Now()
	code, _, stderr := pummel(t.Context(), "suite", "-q", plan, "-o", dir)
	if code != exitFailed || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "mode fast, run 1: starting the server") {
		t.Errorf("exit %d, stderr %q: want 1 and one line", code, stderr)
	}
	if took := time.Since(began); took > 10*time.Second {
		t.Errorf("took %v with a 300ms ready timeout", took)
	}
	if rep := readResult(t, dir); len(rep.Runs) != 1 || rep.Error == "" || rep.Runs[0].Error == "" {
		t.Errorf("report: %d runs, error %q", len(rep.Runs), rep.Error)
	}
	checkGone(t, sleep)
}

func TestSuiteBadPlansExitTwoWithOneLine(t *testing.T) {
	tests := []struct {
		name    string
		replace []string
		line    string // the plan's line the error names holds this
		want    string // after "plan.yaml:N: "
	}{
		{"unknown field", []string{"runs: 2", "runs: 2\nrepeat: 3"}, "repeat: 3", "repeat: unknown field"},
		{"missing command", []string{`  command: [pummel, serve, "--addr=127.0.0.1:{port}"]` + "\n", ""}, "server:", "server.command: required"},
		{"bad duration", []string{"duration: 200ms, connections: 4", "duration: 5x, connections: 4"}, "duration: 5x", `operations[2].load.open.duration: "5x" is not a duration`},
		{"undefined placeholder", []string{"/bytes/1024", "/bytes/{size}"}, "{size}", "operations[1].url: undefined placeholder {size}"},
		{"ready http2 not a bool", []string{"    status: 200\n    timeout: 10s", "    status: 200\n    http2: yes\n    timeout: 10s"}, "http2: yes",
			"server.ready.http2: want true or false, not text"},
		{"unset variable", []string{"Content-Type: application/octet-stream", "Authorization: ${PUMMEL_TEST_UNSET}"}, "PUMMEL_TEST_UNSET",
			"operations[2].headers.Authorization: ${PUMMEL_TEST_UNSET} is not set in the environment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := planFrom(t, tt.replace...)
			want := fmt.Sprintf("%s:%d: %s", plan, lineOf(t, plan, tt.line), tt.want)
			code, stdout, stderr := pummel(t.Context(), "suite", plan, "-o", t.TempDir())
			if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, want) {
				t.Errorf("exit %d, stderr %q: want 2 and one line with %q", code, stderr, want)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
	code, _, stderr := pummel(t.Context(), "suite")
	if code != exitUsage || !strings.Contains(stderr, "PLAN.yaml") {
		t.Errorf("no plan: exit %d, %q", code, stderr)
	}
}

// lineOf returns the number of the first line of the file holding text.
func lineOf(t *testing.T, path, text string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, text) {
			return i + 1
		}
	}
	t.Fatalf("%s lacks %q", path, text)
	return 0
}

// statusPlan runs `pummel serve`: two operations whose statuses fail
// their checks, explicit and default, and one that depends on the second.
const statusPlan = `server:
  command: [pummel, serve, "--addr=127.0.0.1:{port}"]
  ready: {url: "http://127.0.0.1:{port}/"}
  settle: 0s
operations:
  - {name: explicit, url: "http://127.0.0.1:{port}/status/500", checks: {status: 200}, load: {sequential: {requests: 20}}}
  - {name: default, url: "http://127.0.0.1:{port}/status/503", load: {closed: {connections: 2, requests: 30}}}
  - {name: after, url: "http://127.0.0.1:{port}/", depends_on: default, load: {sequential: {requests: 20}}}
`

// runPlan runs the plan src with pummel on PATH, writing into a fresh
// directory, which it returns with the exit code and outputs.
func runPlan(t *testing.T, src string) (code int, stdout, stderr, dir string) {
	t.Helper()
	withPummelOnPath(t)
	plan := filepath.Join(t.TempDir(), "plan.yaml")
	if err := os.WriteFile(plan, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	code, stdout, stderr = pummel(t.Context(), "suite", "-q", plan, "-o", dir)
	return code, stdout, stderr, dir
}

func TestSuiteFailedStatusChecksExitThree(t *testing.T) {
	code, stdout, stderr, dir := runPlan(t, statusPlan)
	wantLines := []string{
		"pummel: suite: operation explicit, mode default: 20 of 20 responses failed a check (20 × unexpected status 500)\n",
		"pummel: suite: operation default, mode default: 30 of 30 responses failed a check (30 × unexpected status 503)\n",
	}
	if code != exitCondition || stderr != strings.Join(wantLines, "") {
		t.Fatalf("exit %d, stderr:\n%s\nwant 3 and:\n%s", code, stderr, strings.Join(wantLines, ""))
	}
	rep := readResult(t, dir)
	if ops := rep.Runs[0].Operations; rep.CheckFailures != 50 || ops[2].Result != nil || !strings.Contains(ops[2].Skipped, "default") {
		t.Errorf("%d check failures, after: %+v; want 50 and after skipped", rep.CheckFailures, ops[2])
	}
	md, err := os.ReadFile(filepath.Join(dir, "suite.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"**Check failures: 50**", "- default: 20 × unexpected status 500", "- default: 30 × unexpected status 503",
		"| default | skipped in 1 run |", "| 0 | 20 |", "| 0 | 30 |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	for _, want := range []string{"skipped in 1 run", "50 responses failed a check"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
}

func TestSuiteOutputDirCheckedBeforeLoad(t *testing.T) {
	withPummelOnPath(t)
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(file, "results")
	began := time.Now()
	code, stdout, stderr := pummel(t.Context(), "suite", examplePlan, "-o", dir)
	if want := "pummel: -o " + dir + ": not a directory\n"; code != exitUsage || stderr != want || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, want)
	}
	if took := time.Since(began); took > 2*time.Second {
		t.Errorf("took %s: the plan ran before the check", took)
	}
}

func TestSuiteWritesEveryOutputItCan(t *testing.T) {
	withPummelOnPath(t)
	plan := planFrom(t, "runs: 2", "runs: 1", "  - name: slow\n    args: [--delay=2ms]\n", "")
	dir := t.TempDir()
	blocked := filepath.Join(dir, "suite.json")
	if err := os.Mkdir(blocked, 0o755); err != nil { // a rename cannot replace a directory
		t.Fatal(err)
	}
	code, stdout, stderr := pummel(t.Context(), "suite", "-q", plan, "-o", dir)
	if code != exitFailed || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "pummel: -o "+blocked+": ") {
		t.Errorf("exit %d, stderr %q: want 1 and one line naming %s", code, stderr, blocked)
	}
	if md, err := os.ReadFile(filepath.Join(dir, "suite.md")); err != nil || !strings.Contains(string(md), "**Environment:**") {
		t.Errorf("suite.md not written whole: %v", err)
	}
	if want := "Written: " + filepath.Join(dir, "suite.md") + "\n"; !strings.Contains(stdout, "bytes-1k") || !strings.HasSuffix(stdout, want) {
		t.Errorf("summary:\n%s\nwant it to end %q", stdout, want)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// thresholdPlan has one operation with a threshold that holds and one
// that cannot.
const thresholdPlan = `server:
  command: [pummel, serve, "--addr=127.0.0.1:{port}"]
  ready: {url: "http://127.0.0.1:{port}/"}
  settle: 0s
operations:
  - {name: get, url: "http://127.0.0.1:{port}/", thresholds: [errors==0, p99<1ns], load: {sequential: {requests: 20}}}
`

func TestSuiteFailedThresholdExitsThree(t *testing.T) {
	code, stdout, stderr, dir := runPlan(t, thresholdPlan)
	want := "pummel: suite: operation get, mode default: threshold p99<1ns failed: "
	if code != exitCondition || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, want) {
		t.Fatalf("exit %d, stderr %q: want 3 and one line %q…", code, stderr, want)
	}
	ts := readResult(t, dir).Summary.Operations[0].Thresholds
	if len(ts) != 2 || !ts[0].OK || ts[0].Value != "0" || ts[1].OK {
		t.Errorf("thresholds in suite.json: %+v", ts)
	}
	if !strings.Contains(stdout, "default: threshold errors==0 ok (0)") {
		t.Errorf("summary lacks the thresholds:\n%s", stdout)
	}
}

// TestSuiteServerThatCannotBind: a plan's server whose port is taken
// (another server there answers the readiness probes) exits before the
// first operation; the error line says how it exited and quotes the end
// of its log, which says why.
func TestSuiteServerThatCannotBind(t *testing.T) {
	taken := fixture.New(t, fixture.Behaviour{})
	code, _, stderr, _ := runPlan(t, `server:
  command: [pummel, serve, "--addr=`+taken.Addr()+`"]
  ready: {url: "`+taken.URL()+`"}
  settle: 0s
operations:
  - {name: get, url: "`+taken.URL()+`", load: {sequential: {requests: 5}}}
`)
	for _, want := range []string{"server process exited before the first operation, ", "(exit status 1); log ", "address already in use"} {
		if code != exitFailed || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, want) {
			t.Errorf("exit %d, stderr %q: want 1 and one line holding %q", code, stderr, want)
		}
	}
}
