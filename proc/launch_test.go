//go:build unix

package proc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLaunchMeasuresStartup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		args   []string
		settle time.Duration
		min    time.Duration // startup at least
	}{
		{name: "ready at once"},
		{name: "slow to listen", args: []string{"-delay", "150ms"}, min: 150 * time.Millisecond},
		{name: "503 until ready", args: []string{"-ready-after", "200ms"}, min: 200 * time.Millisecond},
		{name: "settles after ready", settle: 150 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := testSpec(t, tt.args...)
			s.Settle = &tt.settle
			began := time.Now()
			p := launch(t, s)
			took := time.Since(began)
			if got := p.Startup(); got <= 0 || got < tt.min || got > tt.min+5*time.Second {
				t.Errorf("Startup() = %s, want in [%s, %s]", got, tt.min, tt.min+5*time.Second)
			}
			if took < p.Startup()+tt.settle {
				t.Errorf("Launch returned after %s, before startup %s + settle %s", took, p.Startup(), tt.settle)
			}
			if exited, err := p.Exited(); exited {
				t.Errorf("Exited() = true, %v; want a running server", err)
			}
		})
	}
}

func TestLaunchFailures(t *testing.T) {
	t.Parallel()
	const readyTimeout = 400 * time.Millisecond
	tests := []struct {
		name    string
		args    []string
		want    error
		within  time.Duration
		mention []string // in the error message
	}{
		{
			name: "never ready", args: []string{"-ready-after", "1h"},
			want: ErrNotReady, within: readyTimeout + time.Second,
			mention: []string{"within 400ms", "status 503", "listening on"},
		},
		{
			name: "exits at once", args: []string{"-fail", "config file missing"},
			want: ErrExited, within: time.Second,
			mention: []string{"before it was ready", "exit status 1", "config file missing"},
		},
		{
			name: "crashes before ready", args: []string{"-ready-after", "1h", "-exit-after", "100ms"},
			want: ErrExited, within: readyTimeout,
			mention: []string{"exit status 3", "crashing on purpose"},
		},
		{
			name: "dies while settling", args: []string{"-exit-after", "150ms"},
			want: ErrExited, within: time.Second,
			mention: []string{"while settling", "exit status 3"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := testSpec(t, tt.args...)
			s.ReadyTimeout = readyTimeout
			settle := 10 * time.Second
			s.Settle = &settle
			began := time.Now()
			p, err := Launch(t.Context(), s)
			took := time.Since(began)
			if p != nil || !errors.Is(err, tt.want) {
				t.Fatalf("Launch = %v, %v; want nil, %v", p, err, tt.want)
			}
			if took > tt.within {
				t.Errorf("Launch failed after %s, want within %s", took, tt.within)
			}
			assertOneLine(t, err, tt.mention...)
			for _, pid := range logPIDs(t, s.LogPath) {
				assertGone(t, pid)
			}
		})
	}
}

func TestLaunchRejectsBadSpecs(t *testing.T) {
	t.Parallel()
	negative := -time.Second
	tests := []struct {
		name    string
		spec    Spec
		mention string
	}{
		{"no command", Spec{ReadyURL: "http://127.0.0.1:1/"}, "--exec"},
		{"no ready URL", Spec{Command: []string{serverBin}}, "--ready-url"},
		{"ready URL not http", Spec{Command: []string{serverBin}, ReadyURL: "ftp://x/"}, "--ready-url"},
		{"negative settle", Spec{Command: []string{serverBin}, ReadyURL: "http://127.0.0.1:1/", Settle: &negative}, "--settle"},
		{"no such program", Spec{Command: []string{"/nonexistent/server"}, ReadyURL: "http://127.0.0.1:1/"}, "/nonexistent/server"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.spec.LogPath = t.TempDir() + "/server.log"
			p, err := Launch(t.Context(), tt.spec)
			if p != nil || err == nil {
				t.Fatalf("Launch = %v, %v; want an error", p, err)
			}
			assertOneLine(t, err, tt.mention)
		})
	}
}

func TestStopEndsTheProcessGroup(t *testing.T) {
	t.Parallel()
	const grace = 300 * time.Millisecond
	tests := []struct {
		name       string
		shell      bool
		args       []string
		wantReason string
		slow       bool // Stop has to wait out the grace period
	}{
		{name: "obeys SIGTERM", wantReason: "signal: terminated"},
		{name: "ignores SIGTERM", args: []string{"-ignore-term"}, wantReason: "signal: killed", slow: true},
		{name: "grandchild ignores SIGTERM", shell: true, args: []string{"-ignore-term"}, slow: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := testSpec(t, tt.args...)
			s.StopGrace = grace
			if tt.shell {
				s.Command, s.Shell = []string{strings.Join(s.Command, " ") + " & wait"}, true
			}
			p := launch(t, s)
			began := time.Now()
			if err := p.Stop(); err != nil {
				t.Fatalf("Stop: %v", err)
			}
			took := time.Since(began)
			if tt.slow != (took >= grace) || took > grace+2*time.Second {
				t.Errorf("Stop took %s with a grace of %s", took, grace)
			}
			if got := p.ExitReason(); tt.wantReason != "" && got != tt.wantReason {
				t.Errorf("ExitReason() = %q, want %q", got, tt.wantReason)
			}
			for _, pid := range append(logPIDs(t, s.LogPath), p.PID()) {
				assertGone(t, pid)
			}
			if err := p.Stop(); err != nil {
				t.Errorf("second Stop: %v", err)
			}
		})
	}
}

func TestExitedDoesNotBlock(t *testing.T) {
	t.Parallel()
	p := launch(t, testSpec(t, "-exit-after", "200ms"))
	if exited, err := p.Exited(); exited || err != nil {
		t.Fatalf("Exited() = %v, %v right after start", exited, err)
	}
	deadline := time.Now().Add(3 * time.Second)
	for exited, _ := p.Exited(); !exited; exited, _ = p.Exited() {
		if time.Now().After(deadline) {
			t.Fatal("server still running 3s after it should have exited")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := p.ExitReason(); got != "exit status 3" {
		t.Errorf("ExitReason() = %q, want exit status 3", got)
	}
}

// assertOneLine checks that err's message is one line mentioning each of
// mention.
func assertOneLine(t *testing.T, err error, mention ...string) {
	t.Helper()
	msg := err.Error()
	if strings.Contains(msg, "\n") {
		t.Errorf("error spans lines: %q", msg)
	}
	for _, m := range mention {
		if !strings.Contains(msg, m) {
			t.Errorf("error %q does not mention %q", msg, m)
		}
	}
}

// TestLaunchFailureLeavesNoLog: a server that cannot be started leaves no
// log file behind, temporary or named, unless the named one was there
// before; the error is the one of a failed start.
func TestLaunchFailureLeavesNoLog(t *testing.T) {
	notExecutable := filepath.Join(t.TempDir(), "server.sh")
	if err := os.WriteFile(notExecutable, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	programs := []struct{ name, command string }{
		{"no such file", "/nonexistent/server"},
		{"not on PATH", "pummel-no-such-server"},
		{"not executable", notExecutable},
	}
	for _, program := range programs {
		for _, named := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/named log %v", program.name, named), func(t *testing.T) {
				dir := t.TempDir()
				t.Setenv("TMPDIR", dir)
				spec := Spec{Command: []string{program.command}, ReadyURL: "http://127.0.0.1:1/"}
				if named {
					spec.LogPath = filepath.Join(dir, "server.log")
				}
				p, err := Launch(t.Context(), spec)
				if p != nil || err == nil {
					t.Fatalf("Launch = %v, %v; want an error", p, err)
				}
				assertOneLine(t, err, fmt.Sprintf("--exec: starting %q: ", program.command))
				if left, _ := os.ReadDir(dir); len(left) > 0 {
					t.Errorf("left %s behind", left[0].Name())
				}
			})
		}
	}
	t.Run("an earlier log is kept", func(t *testing.T) {
		log := filepath.Join(t.TempDir(), "server.log")
		if err := os.WriteFile(log, []byte("earlier\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Launch(t.Context(), Spec{Command: []string{notExecutable}, ReadyURL: "http://127.0.0.1:1/", LogPath: log}); err == nil {
			t.Fatal("Launch of a file that is not executable: no error")
		}
		if b, err := os.ReadFile(log); err != nil || string(b) != "earlier\n" {
			t.Errorf("the log named, which was there before, holds %q, %v; want it as it was", b, err)
		}
		if left, _ := os.ReadDir(filepath.Dir(log)); len(left) != 1 {
			t.Errorf("%d files left beside the log, want it alone", len(left))
		}
	})
}

// TestLaunchReplacesAnEarlierLog: a server that starts writes its output
// over an earlier log at the path named (one log per run), through a
// symbolic link to it as well, leaving no other file behind.
func TestLaunchReplacesAnEarlierLog(t *testing.T) {
	t.Parallel()
	for _, link := range []bool{false, true} {
		t.Run(fmt.Sprintf("through a link %v", link), func(t *testing.T) {
			s := testSpec(t)
			dir := filepath.Dir(s.LogPath)
			if err := os.WriteFile(s.LogPath, []byte("earlier\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if link {
				s.LogPath = filepath.Join(dir, "link.log")
				if err := os.Symlink("server.log", s.LogPath); err != nil {
					t.Fatal(err)
				}
			}
			p := launch(t, s)
			if err := p.Stop(); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(s.LogPath)
			if err != nil || strings.Contains(string(b), "earlier") || len(logPIDs(t, s.LogPath)) != 1 {
				t.Errorf("log %q, %v; want the server's output alone", b, err)
			}
			if left, _ := os.ReadDir(dir); len(left) != 1+btoi(link) {
				t.Errorf("%d files in the log's directory, want the log (and the link)", len(left))
			}
		})
	}
}

// btoi is 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestExitedErrorSaysHowAndWhy: a server found gone after Launch (a
// watcher saw it exit before the load) is described on one line with
// its exit status and the end of its log, waiting for it to be reaped.
func TestExitedErrorSaysHowAndWhy(t *testing.T) {
	t.Parallel()
	p := launch(t, testSpec(t, "-exit-after", "100ms"))
	err := p.ExitedError("before the load")
	if !errors.Is(err, ErrExited) {
		t.Errorf("ExitedError = %v, want ErrExited", err)
	}
	assertOneLine(t, err, "exited before the load", "exit status 3", "crashing on purpose", p.LogPath())
}
