//go:build unix

package proc

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
)

// serverSource is the server under test: a small net/http program whose
// startup, readiness, memory and CPU use the tests control.
const serverSource = `package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"
)

var (
	mu   sync.Mutex
	kept [][]byte // memory grown by /grow, kept for the process's life
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	delay := flag.Duration("delay", 0, "sleep before listening")
	exitAfter := flag.Duration("exit-after", 0, "exit with status 3 after this")
	readyAfter := flag.Duration("ready-after", 0, "/ready answers 503 until this long after start")
	ignoreTerm := flag.Bool("ignore-term", false, "ignore SIGTERM")
	fail := flag.String("fail", "", "print this to stderr and exit 1 at once")
	flag.Parse()
	start := time.Now()
	fmt.Printf("pid %d\n", os.Getpid())
	if *fail != "" {
		fmt.Fprintln(os.Stderr, *fail)
		os.Exit(1)
	}
	if *ignoreTerm {
		signal.Ignore(syscall.SIGTERM)
	}
	if *exitAfter > 0 {
		time.AfterFunc(*exitAfter, func() { fmt.Println("crashing on purpose"); os.Exit(3) })
	}
	time.Sleep(*delay)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Println("listening on", ln.Addr())
	http.HandleFunc("/ready", func(w http.ResponseWriter, r *http.Request) {
		if time.Since(start) < *readyAfter {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	http.HandleFunc("/grow", grow)
	http.HandleFunc("/burn", burn)
	http.Serve(ln, nil)
}

func grow(w http.ResponseWriter, r *http.Request) {
	mb, _ := strconv.Atoi(r.URL.Query().Get("mb"))
	b := make([]byte, mb<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1 // touch every page, so it is resident
	}
	mu.Lock()
	kept = append(kept, b)
	mu.Unlock()
}

// burn spins until the process has used ms more milliseconds of CPU: of
// CPU time, not wall time, so that a busy machine stretches the request
// rather than shrinking what it burns.
func burn(w http.ResponseWriter, r *http.Request) {
	ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
	x := 0
	for end := cpu() + time.Duration(ms)*time.Millisecond; cpu() < end; {
		for i := range 10000 {
			x += i * i
		}
	}
	fmt.Fprint(w, x)
}

// cpu is the process's CPU time so far.
func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
`

// serverBin is the built server under test, set by TestMain.
var serverBin string

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

// runTests builds the server under test once, then runs the tests.
func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "pummel-proc-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if serverBin, err = buildServer(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

// buildServer writes serverSource to dir and builds it there.
func buildServer(dir string) (string, error) {
	src := filepath.Join(dir, "server.go")
	if err := os.WriteFile(src, []byte(serverSource), 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "server")
	cmd := exec.Command("go", "build", "-o", bin, src)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the test server: %w\n%s", err, out)
	}
	return bin, nil
}

// testSpec returns a Spec for the server under test on a free port, with
// no settle time and a short stop grace; args are added to its flags.
func testSpec(t *testing.T, args ...string) Spec {
	t.Helper()
	addr := fixture.FreeAddr(t)
	noSettle := time.Duration(0)
	return Spec{
		Command:      append([]string{serverBin, "-addr", addr}, args...),
		ReadyURL:     "http://" + addr + "/ready",
		ReadyTimeout: 10 * time.Second,
		Settle:       &noSettle,
		LogPath:      filepath.Join(t.TempDir(), "server.log"),
		StopGrace:    time.Second,
	}
}

// launch starts a server from s and stops it when the test ends, checking
// that no process is left behind.
func launch(t *testing.T, s Spec) *Process {
	t.Helper()
	p, err := Launch(t.Context(), s)
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	t.Cleanup(func() {
		if err := p.Stop(); err != nil {
			t.Errorf("Stop: %v", err)
		}
		assertGone(t, p.PID())
	})
	return p
}

// baseURL returns the server's base URL from its spec.
func baseURL(s Spec) string {
	return strings.TrimSuffix(s.ReadyURL, "/ready")
}

// get sends a GET to the server and fails the test unless it answers 200.
func get(t *testing.T, url string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d", url, resp.StatusCode)
	}
}

// logPIDs returns the pids the server instances printed to a log.
func logPIDs(t *testing.T, path string) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, m := range regexp.MustCompile(`(?m)^pid (\d+)$`).FindAllSubmatch(b, -1) {
		pid, _ := strconv.Atoi(string(m[1]))
		pids = append(pids, pid)
	}
	return pids
}

// assertGone fails the test unless process pid stops running within 2s.
// A zombie counts as gone: it runs no more, and its reaping is up to its
// parent (init, for an orphaned grandchild).
func assertGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		err := syscall.Kill(pid, 0)
		if errors.Is(err, syscall.ESRCH) || procStatZombie(pid) {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("process %d still running (kill -0: %v)", pid, err)
			return
		}
	}
}

// procStatZombie reports whether /proc shows pid as a zombie (Linux only).
func procStatZombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, after, ok := strings.Cut(string(b), ") ")
	return ok && strings.HasPrefix(after, "Z")
}
