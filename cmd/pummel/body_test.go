package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/internal/fixture"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		bad  bool
	}{
		{in: "65536", want: 65536},
		{in: "64k", want: 64_000},
		{in: "64kB", want: 64_000},
		{in: "64M", want: 64_000_000},
		{in: "64MB", want: 64_000_000},
		{in: "1G", want: 1_000_000_000},
		{in: "64KiB", want: 64 << 10},
		{in: "64MiB", want: 64 << 20},
		{in: "1.5GiB", want: 3 << 29},
		{in: "0", want: 0},
		{in: "B", bad: true},
		{in: "lots", bad: true},
		{in: "-1MiB", bad: true},
		{in: "1.5", bad: true},
		{in: "0.1KiB", bad: true},
	}
	for _, tt := range tests {
		got, err := parseSize(tt.in)
		if tt.bad != (err != nil) || got != tt.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d (bad: %v)", tt.in, got, err, tt.want, tt.bad)
		}
	}
}

func TestBodiesOverMaxBodyAreRefused(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.bin")
	if err := os.WriteFile(big, make([]byte, 2000), 0o600); err != nil {
		t.Fatal(err)
	}
	url := "http://127.0.0.1:1/"
	tests := []struct {
		name string
		args []string
		flag string
	}{
		{"endless body file", []string{"--body-file", "/dev/zero", url}, "--body-file"},
		{"endless body file, small limit", []string{"--max-body", "1MiB", "--body-file", "/dev/zero", url}, "--body-file"},
		{"body file over the limit", []string{"--max-body", "1k", "--body-file", big, url}, "--max-body 1k"},
		{"body over the limit", []string{"--max-body", "3", "-b", "abcd", url}, "-b/--body"},
		{"bad limit", []string{"--max-body", "lots", url}, "--max-body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := pummel(t.Context(), tt.args...)
			if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.flag) {
				t.Errorf("exit %d, stderr %q: want 2 and one line naming %s", code, stderr, tt.flag)
			}
		})
	}
	srv := fixture.New(t, fixture.Behaviour{})
	exact := filepath.Join(t.TempDir(), "exact.bin")
	os.WriteFile(exact, []byte("abcd"), 0o600) //nolint:errcheck // read below
	code, _, stderr := pummel(t.Context(), "-n", "1", "-c", "1", "--max-body", "4", "--body-file", exact, srv.URL())
	if last := string(srv.LastRequest()); code != 0 || !strings.HasSuffix(last, "\r\n\r\nabcd") {
		t.Errorf("a body of exactly --max-body: exit %d, request %q\n%s", code, last, stderr)
	}
}

// TestBodyIsNotPublished: a request body (a login's password) is not in
// the outputs meant for publishing, whether given with -b or in a
// --body-file, only its size and digest; the body file's path is.
func TestBodyIsNotPublished(t *testing.T) {
	const body = `{"password":"planted-body-20"}`
	srv := fixture.New(t, fixture.Behaviour{})
	dir := t.TempDir()
	file := filepath.Join(dir, "login.json")
	os.WriteFile(file, []byte(body), 0o600) //nolint:errcheck // read below
	for _, given := range [][]string{{"-b", body}, {"--body-file", file}} {
		var outputs []string
		for _, format := range []string{"text", "json", "markdown"} {
			md, js := filepath.Join(dir, format+".md"), filepath.Join(dir, format+".json")
			for _, extra := range [][]string{{"--dry-run"}, {"-n", "2", "-c", "1", "-o", md, "-o", js}} {
				args := append(append(append([]string{"--format", format}, given...), extra...), srv.URL())
				code, stdout, stderr := pummel(t.Context(), args...)
				if code != 0 {
					t.Fatalf("%q: exit %d\n%s", args, code, stderr)
				}
				outputs = append(outputs, stdout, stderr)
			}
			for _, path := range []string{md, js} {
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				outputs = append(outputs, string(b))
			}
		}
		all := strings.Join(outputs, "\n")
		if strings.Contains(all, "planted-body-20") {
			t.Errorf("%s: the body is printed:\n%s", given[0], all)
		}
		want := "<redacted: 30 bytes, sha256 "
		if given[0] == "--body-file" {
			want = "--body-file " + file
		}
		if !strings.Contains(all, want) {
			t.Errorf("%s: no %q in the outputs:\n%s", given[0], want, all)
		}
	}
}
