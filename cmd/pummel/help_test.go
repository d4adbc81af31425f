package main

import (
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestHelpFitsHundredColumns: every help, pummel's and each command's,
// fits a terminal of 100 columns (urfave/cli's templates made lines of
// 200, as they wrote repeatable flags' placeholders twice).
func TestHelpFitsHundredColumns(t *testing.T) {
	asks := [][]string{{"--help"}, {"-h"}, {"help"}, {"http://127.0.0.1:1/", "-h"}}
	for _, c := range newApp(&commandLine{}, io.Discard, io.Discard).Commands {
		asks = append(asks, []string{c.Name, "--help"}, []string{"help", c.Name})
	}
	for _, args := range asks {
		code, stdout, stderr := pummel(t.Context(), args...)
		if code != 0 || stderr != "" || !strings.Contains(stdout, "Usage: ") && !strings.Contains(stdout, "Usage:\n") {
			t.Errorf("%v: exit %d, stderr %q, stdout:\n%s", args, code, stderr, stdout)
		}
		for line := range strings.Lines(stdout) {
			if n := utf8.RuneCountInString(strings.TrimSuffix(line, "\n")); n > helpWidth {
				t.Errorf("%v: a line of %d columns: %q", args, n, line)
			}
		}
		if strings.Contains(stdout, "default: false") || strings.Contains(stdout, "default false") {
			t.Errorf("%v: a bool flag with a default of false:\n%s", args, stdout)
		}
	}
}

func TestCommandHelp(t *testing.T) {
	tests := []struct {
		args          []string
		want, dontWan []string
	}{
		{[]string{"run", "-h"}, []string{"Usage: pummel [run] [flags] URL", "-c, --connections N", "--exec"}, []string{"--version"}},
		// demo shows its own defaults and only the flags it uses
		{[]string{"demo", "--help"}, []string{"Usage: pummel demo [flags]\n", "(default 32)", "(default 3s unless -n)", "--latency               print the latency distribution (default on)"},
			[]string{"--exec", "--pid", "--unix", "--cacert", "(default 50)", "10s unless"}},
		{[]string{"help", "compare"}, []string{"Usage: pummel compare [flags] BASE.json NEW.json", "--max-regression [FIGURE=]P%"}, nil},
		{[]string{"-h"}, []string{"Commands:\n  run ", "  version ", "Exit codes: 0 done;", "-v, --version"}, nil},
		// -k does not say both "the default" and "default false"
		{[]string{"-h"}, []string{"-k, --keepalive             accepted for ab users: connections are kept alive anyway"}, nil},
	}
	for _, tt := range tests {
		_, stdout, _ := pummel(t.Context(), tt.args...)
		for _, want := range tt.want {
			if !strings.Contains(stdout, want) {
				t.Errorf("%v lacks %q:\n%s", tt.args, want, stdout)
			}
		}
		for _, not := range tt.dontWan {
			if strings.Contains(stdout, not) {
				t.Errorf("%v holds %q:\n%s", tt.args, not, stdout)
			}
		}
	}
	code, _, stderr := pummel(t.Context(), "help", "bogus")
	if code != exitUsage || !strings.Contains(stderr, `help: "bogus" is not a command`) {
		t.Errorf("help bogus: exit %d, %q", code, stderr)
	}
}

func TestDemoByCount(t *testing.T) {
	// -n alone runs to the count, not to demo's 3 seconds.
	code, stdout, stderr := pummel(t.Context(), "demo", "-n", "300", "-c", "2", "-q")
	if code != 0 || !strings.Contains(stdout, "  300 requests in ") || !strings.Contains(stdout, "Latency Distribution") {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}

func TestVersion(t *testing.T) {
	var outs []string
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		code, stdout, stderr := pummel(t.Context(), args...)
		if code != 0 || stderr != "" {
			t.Fatalf("%v: exit %d, %q", args, code, stderr)
		}
		outs = append(outs, stdout)
	}
	if outs[0] != outs[1] || outs[1] != outs[2] {
		t.Errorf("version, --version and -v differ: %q", outs)
	}
	for _, want := range []string{"pummel ", "\n  commit  ", "\n  built   ", "\n  go      " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"} {
		if !strings.Contains(outs[0], want) {
			t.Errorf("version lacks %q:\n%s", want, outs[0])
		}
	}
}

// TestVersionOfABuild: scripts/build.sh stamps the version, commit and
// date that `pummel version` prints.
func TestVersionOfABuild(t *testing.T) {
	out, err := exec.Command(pummelBinary(t), "version").Output()
	want := "pummel v9.8.7\n  commit  0123456789abcdef\n  built   2026-01-02T03:04:05Z\n"
	if err != nil || !strings.HasPrefix(string(out), want) {
		t.Errorf("pummel version: %v\n%s\nwant it to start with\n%s", err, out, want)
	}
}

// TestABuildStartsWithoutTheManWriter: a binary from scripts/build.sh
// does not initialise urfave/cli's man-page writer (go-md2man and the
// blackfriday Markdown parser, 200 KB allocated at every start): `pummel
// man` prints the embedded page. The runtime's init trace is the witness.
func TestABuildStartsWithoutTheManWriter(t *testing.T) {
	cmd := exec.Command(pummelBinary(t), "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "init github.com/urfave/cli/v2 ") {
		t.Fatalf("GODEBUG=inittrace=1 pummel version: %v, no init trace of urfave/cli:\n%s", err, out)
	}
	if strings.Contains(string(out), "init github.com/russross/blackfriday") {
		t.Error("a binary's start initialises blackfriday, the man-page writer's Markdown parser")
	}
}

// TestManAndCompletionPrintTheDocs: `pummel man` and `pummel completion`
// print the files kept in docs/ (embedded), byte for byte.
func TestManAndCompletionPrintTheDocs(t *testing.T) {
	for file, args := range generatedFiles {
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := pummel(t.Context(), args...)
		if code != 0 || stdout != string(want) {
			t.Errorf("%v: exit %d, stderr %q; stdout differs from %s", args, code, stderr, file)
		}
	}
}

// generatedFiles are the files made from the command definitions, with the
// command line that prints each.
var generatedFiles = map[string][]string{
	"../../docs/pummel.1":               {"man"},
	"../../docs/completion/pummel.bash": {"completion", "bash"},
	"../../docs/completion/pummel.zsh":  {"completion", "zsh"},
	"../../docs/completion/pummel.fish": {"completion", "fish"},
}

// TestBashCompletion runs the bash script as bash would on a tab.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("needs bash")
	}
	_, script, _ := pummel(t.Context(), "completion", "bash")
	tests := []struct {
		line string // the words typed, the last one being completed
		want string
	}{
		{"pummel se", "serve"},
		{"pummel serve --a", "--addr"},
		{"pummel -c 5 --thr", "--threads --threshold"},
		{"pummel demo --exe", ""}, // demo has no --exec
		{"pummel completion ''", "bash zsh fish"},
		{"pummel --progress a", "auto always"},
		{"pummel compare --max", "--max-regression"},
		// --format offers what each command accepts: compare writes no JSON
		{"pummel compare --format ''", "text markdown"},
		{"pummel compare a.json --format ''", "text markdown"},
		{"pummel --format ''", "text json markdown"},
		{"pummel report --format ''", "text json markdown"},
	}
	for _, tt := range tests {
		cmd := exec.Command(bash, "-c", script+`
COMP_WORDS=(`+tt.line+`); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _pummel; echo "${COMPREPLY[*]}"`)
		out, err := cmd.Output()
		if got := strings.TrimSpace(string(out)); err != nil || got != tt.want {
			t.Errorf("%s<TAB>: %q (%v), want %q", tt.line, got, err, tt.want)
		}
	}
}
