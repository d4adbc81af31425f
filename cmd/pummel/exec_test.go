package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	// testDir holds what the tests share (the pummel binary); TestMain
	// removes it after them.
	testDir string
)

func TestMain(m *testing.M) {
	if addr := os.Getenv(h2cAddrEnv); addr != "" {
		os.Exit(serveH2COnly(addr, os.Getenv(h2cCountEnv)))
	}
	os.Exit(runTests(m))
}

// runTests runs the tests with a directory for what they share, removed
// after them: a 30 MB binary per run of the tests otherwise piles up.
func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "pummel-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	testDir = dir
	return m.Run()
}

// pummelBinary builds pummel once with scripts/build.sh, stamped with a
// known version (TestVersionOfABuild), and returns the binary: the tests
// run it as a real child (`pummel serve`, --exec, shards). One build
// serves them all: a second one with other flags (go build's defaults)
// compiled every dependency again, half a minute of a first test run on
// two cores.
func pummelBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binPath = filepath.Join(testDir, "pummel")
		build := exec.Command("../../scripts/build.sh", binPath)
		build.Env = append(build.Environ(), "VERSION=v9.8.7", "COMMIT=0123456789abcdef", "DATE=2026-01-02T03:04:05Z")
		if out, err := build.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("scripts/build.sh: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func gone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

// serverLogs lists the --exec logs left in dir.
func serverLogs(t *testing.T, dir string) []string {
	t.Helper()
	logs, err := filepath.Glob(filepath.Join(dir, "pummel-server-*.log"))
	if err != nil {
		t.Fatal(err)
	}
	return logs
}

func TestExecRunsFreshServers(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where --exec puts the servers' logs
	bin := pummelBinary(t)
	addr := fixture.FreeAddr(t)
	code, stdout, stderr := pummel(t.Context(), "-k", "-c", "4", "-n", "300", "--exec", bin+" serve --addr "+addr,
		"--settle", "0", "--runs", "2", "--format", "json", "http://"+addr+"/")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res stats.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 2 || res.Requests != 600 {
		t.Fatalf("%d runs, %d requests: want 2 runs of 300", len(res.Runs), res.Requests)
	}
	if want := "Running 600 requests test (2 runs of 300 requests) @ http://" + addr + "/\n"; !strings.HasPrefix(stderr, want) {
		t.Errorf("stderr %q: want the header %q", stderr, want)
	}
	pids := map[int]bool{}
	for _, run := range res.Runs {
		s := run.Server[0]
		if s.StartupS == nil || *s.StartupS <= 0 || s.RSSBytes.Idle <= 0 || s.RSSBytes.After <= 0 || s.ExitedDuringLoad {
			t.Errorf("server figures %+v", s)
		}
		pids[s.PID] = true
		if !gone(s.PID) {
			t.Errorf("server pid %d still running", s.PID)
		}
	}
	if len(pids) != 2 {
		t.Errorf("pids %v: want a fresh process per run", pids)
	}
	if b := res.Environment.Binary; b == nil || b.SizeBytes == 0 || len(b.SHA256) != 64 {
		t.Errorf("binary %+v", b)
	}
	_, text, _ := pummel(t.Context(), "-c", "2", "-n", "50", "--exec", bin+" serve --addr "+addr, "--settle", "0",
		"--runs", "2", "http://"+addr+"/", "--format", "markdown")
	for _, want := range []string{"| Startup |", "2 runs)", "| Idle RSS |", "| Binary size |"} {
		if !strings.Contains(text, want) {
			t.Errorf("markdown lacks %q:\n%s", want, text)
		}
	}
	if logs := serverLogs(t, tmp); len(logs) > 0 {
		t.Errorf("runs that went well left their logs: %v", logs)
	}
}

// TestExecKeepsTheLogOfAFailedRun: a run that could not be carried out
// keeps the server's log and says where it is.
func TestExecKeepsTheLogOfAFailedRun(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	addr, closed := fixture.FreeAddr(t), fixture.FreeAddr(t)
	for closed == addr { // the target must not be the server
		closed = fixture.FreeAddr(t)
	}
	code, _, stderr := pummel(t.Context(), "-n", "10", "--exec", pummelBinary(t)+" serve --addr "+addr, "--settle", "0",
		"--ready-url", "http://"+addr+"/", "http://"+closed+"/")
	logs := serverLogs(t, tmp)
	if code != exitFailed || len(logs) != 1 || !strings.Contains(stderr, "pummel: the server's log is kept: "+logs[0]+"\n") {
		t.Errorf("exit %d, logs %v, stderr %q: want 1 and the log kept and named", code, logs, stderr)
	}
}

// TestExecServerThatCannotBind: a server whose port is taken (another
// server there answers the readiness probes) exits before the load; the
// error says how it exited and quotes the end of its log, which says why,
// with --settle 0 and with a settle shorter than its start.
func TestExecServerThatCannotBind(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	taken := fixture.New(t, fixture.Behaviour{})
	for _, settle := range []string{"0", "1ms"} {
		code, stdout, stderr := pummel(t.Context(), "-n", "10", "--exec", pummelBinary(t)+" serve --addr "+taken.Addr(),
			"--settle", settle, taken.URL())
		for _, want := range []string{"pummel: server process exited ", "(exit status 1); log ", "address already in use"} {
			if code != exitFailed || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, want) {
				t.Errorf("--settle %s: exit %d, stdout %q, stderr %q: want 1 and one line holding %q", settle, code, stdout, stderr, want)
			}
		}
		// The other server answers the readiness probe at once, and the
		// child's failed bind ends it some milliseconds after its start:
		// which of the two comes first, and so when the exit is seen,
		// depends on how busy the machine is.
		if !strings.Contains(stderr, "exited before the load, ") && !strings.Contains(stderr, "exited while settling after it was ready, ") {
			t.Errorf("--settle %s: stderr %q: want the exit seen before the load or while settling", settle, stderr)
		}
	}
}

func TestExecServerNeverReady(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // its log is kept, named in the error
	addr := fixture.FreeAddr(t)
	sleep := uniqueSleep()
	began := time.Now()
	code, _, stderr := pummel(t.Context(), "-n", "10", "--exec", sleep, "--ready-timeout", "500ms", "http://"+addr+"/")
	if code != exitFailed || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q: want 1 and one line", code, stderr)
	}
	if took := time.Since(began); took > 10*time.Second {
		t.Errorf("took %v with --ready-timeout 500ms", took)
	}
	checkGone(t, sleep)
}

// TestExecServerNeverReadyOverHTTP3: under --http3 the readiness probes
// speak HTTP/3 (a server may answer on UDP alone), and a server that never
// answers them is named with the protocol they spoke.
func TestExecServerNeverReadyOverHTTP3(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	sleep := uniqueSleep()
	code, _, stderr := pummel(t.Context(), "--http3", "-n", "10", "--exec", sleep, "--ready-timeout", "500ms", "https://"+fixture.FreeAddr(t)+"/")
	if code != exitFailed || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, " over HTTP/3: last answer: ") {
		t.Errorf("exit %d, stderr %q: want 1 and one line naming HTTP/3", code, stderr)
	}
	checkGone(t, sleep)
}

// uniqueSleep is a command that sleeps 30 s and that no other test
// process runs: its leftovers are found by its command line, and a
// concurrent run of these tests (or of another checkout's) on the same
// machine runs its own "sleep 30" for a while.
func uniqueSleep() string { return fmt.Sprintf("sleep 30.%d", os.Getpid()) }

// checkGone fails the test if a process runs the command line cmd.
func checkGone(t *testing.T, cmd string) {
	t.Helper()
	if out, _ := exec.Command("pgrep", "-f", "^"+regexp.QuoteMeta(cmd)+"$").Output(); len(out) > 0 {
		t.Errorf("%s left running: pids %s", cmd, out)
	}
}

// startServe runs `pummel serve` as a child until the test ends and
// returns it once it accepts connections, with its address.
func startServe(t *testing.T) (*exec.Cmd, string) {
	t.Helper()
	addr := fixture.FreeAddr(t)
	srv := exec.Command(pummelBinary(t), "serve", "--addr", addr)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	// A bound, not the expected time: it was 2 s, after which the test
	// went on against no server, and a busy machine may take that long.
	for deadline := time.Now().Add(hangLimit); ; time.Sleep(20 * time.Millisecond) {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return srv, addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("pummel serve --addr %s accepts no connection after %v: %v", addr, hangLimit, err)
		}
	}
}

func TestWatchPid(t *testing.T) {
	srv, addr := startServe(t)
	code, stdout, stderr := pummel(t.Context(), "-c", "2", "-n", "500", "--pid", fmt.Sprint(srv.Process.Pid), "http://"+addr+"/")
	if code != 0 || !strings.Contains(stdout, fmt.Sprintf("Server pid %d: RSS idle", srv.Process.Pid)) {
		t.Errorf("exit %d: %s\n%s", code, stdout, stderr)
	}
	code, _, stderr = pummel(t.Context(), "-n", "5", "--pid", "999999999", "http://"+addr+"/")
	if code != exitUsage || !strings.Contains(stderr, "--pid") {
		t.Errorf("a missing pid: exit %d, %q", code, stderr)
	}
}

func TestScriptCommandLine(t *testing.T) {
	url := targetURL(t)
	lua := filepath.Join("..", "..", "scripts", "lua")
	code, stdout, stderr := pummel(t.Context(), "-c", "2", "-n", "100", "--format", "json", "-s", filepath.Join(lua, "pipeline.lua"), url, "--", "4")
	var res stats.Result
	if code != 0 || json.Unmarshal([]byte(stdout), &res) != nil || res.Requests != 100 {
		t.Errorf("exit %d, %d requests: %s", code, res.Requests, stderr)
	}
	// The arguments after "--" reach init(): a pipelining script falls back
	// to a depth of its own without them, so show them in the request path.
	echo := filepath.Join(t.TempDir(), "args.lua")
	os.WriteFile(echo, []byte("function init(args)\n  path = \"/\" .. table.concat(args, \"/\")\nend\nfunction request()\n  return wrk.format(nil, path)\nend\n"), 0o600) //nolint:errcheck // read below
	srv := fixture.New(t, fixture.Behaviour{})
	code, _, stderr = pummel(t.Context(), "-c", "1", "-n", "3", "-s", echo, srv.URL(), "--", "4", "x")
	if last := string(srv.LastRequest()); code != 0 || !strings.HasPrefix(last, "GET /4/x HTTP/1.1\r\n") {
		t.Errorf("script arguments: exit %d, last request %q\n%s", code, last, stderr)
	}
	checkReportCSV(t, url)
	broken := filepath.Join(t.TempDir(), "broken.lua")
	os.WriteFile(broken, []byte("function request()\n  return wrk.format(\nend\n"), 0o600) //nolint:errcheck // read below
	code, _, stderr = pummel(t.Context(), "-n", "5", "-s", broken, url)
	if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "broken.lua:") {
		t.Errorf("syntax error: exit %d, %q", code, stderr)
	}
}

func TestProgressOnATerminalOnly(t *testing.T) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("needs script(1) for a pseudo-terminal")
	}
	bin := pummelBinary(t)
	url := targetURL(t)
	// script(1) runs pummel on a pseudo-terminal and copies what it drew.
	onTTY, err := exec.Command("script", "-qfec", bin+" -c 2 -d 1200ms "+url, "/dev/null").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(onTTY), "\r") || !strings.Contains(string(onTTY), "req/s  p50") {
		t.Errorf("no progress line on a terminal:\n%q", onTTY)
	}
	quiet, _ := exec.Command("script", "-qfec", bin+" -q -c 2 -d 600ms "+url, "/dev/null").Output()
	cmd := exec.Command(bin, "-c", "2", "-d", "600ms", url)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"-q": string(quiet), "a pipe": stderr.String()} {
		if strings.Contains(out, "req/s  p50") {
			t.Errorf("progress drawn with %s:\n%q", name, out)
		}
	}
}

// checkReportCSV runs scripts/lua/report.lua as its usage says and reads
// what it wrote as CSV: a header and one row per percentile. Its usage
// used to be `> latency.csv`, which held pummel's text result too.
func checkReportCSV(t *testing.T, url string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "latency.csv")
	t.Setenv("PUMMEL_CSV", path)
	code, stdout, stderr := pummel(t.Context(), "-c", "2", "-n", "100", "-s", filepath.Join("..", "..", "scripts", "lua", "report.lua"), url)
	if code != 0 || !strings.Contains(stdout, "latency percentiles written to "+path) {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != 6 || strings.Join(rows[0], ",") != "percentile,latency_us" {
		t.Fatalf("%s: %q, %v; want a header and 5 rows", path, rows, err)
	}
	for _, row := range rows[1:] {
		if _, err := strconv.Atoi(row[1]); err != nil {
			t.Errorf("row %q: the latency is not a whole number of µs", row)
		}
	}
}
