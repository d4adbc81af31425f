package main

import (
	"strings"
	"testing"
)

// TestHabitsOfOtherTools: a flag spelled as ab, hey, oha or Vegeta spell
// it, or misspelled, is refused in one line that says what to type.
func TestHabitsOfOtherTools(t *testing.T) {
	const url = "http://127.0.0.1:1/"
	tests := []struct {
		name string
		args []string
		want string // in the one line
	}{
		{"ab's -p", []string{"-p", "post.json", "-T", "application/json", url}, "-p: unknown flag; ab's -p FILE is --body-file FILE"},
		{"hey's -z", []string{"-z", "30s", "-c", "50", url}, "-z: unknown flag; hey's and oha's -z D is -d D"},
		{"hey's -D", []string{"-D", "body.json", url}, "--body-file FILE"},
		{"hey's --disable-keepalive", []string{"--disable-keepalive", url}, "is --no-keepalive"},
		{"oha's -q", []string{"-d", "30s", "-c", "50", "-q", "100", url}, "hey's and oha's -q RATE is -R RATE"},
		{"hey's -d BODY", []string{"-d", "hello", url}, "hey's and oha's -d BODY is -b BODY"},
		{"ab's -t over -c", []string{"-t", "30", "-c", "2", url}, "-t/--threads: 30 threads for 2 connections; use at most 2; ab's -t SECONDS is -d SECONDS here"},
		{"misspelled long flag", []string{"--conections", "3", url}, "--conections: unknown flag; did you mean --connections?"},
		{"misspelled alias", []string{"--latncy", url}, "did you mean --latency?"},
		{"misspelled flag of a command", []string{"report", "--plott", "d", "a.json"}, "--plott: unknown flag; did you mean --plot?"},
		{"nothing near", []string{"--bogus", url}, "--bogus: unknown flag (pummel --help lists them)"},
		{"no guess for one letter", []string{"-x", url}, "-x: unknown flag (pummel --help lists them)"},
		{"another tool's flag on another command", []string{"report", "-p", "a.json"}, "-p: unknown flag (pummel --help lists them)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := pummel(t.Context(), tt.args...)
			if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Errorf("pummel %q: exit %d, stdout %q, stderr %q; want exit 2 and one line holding %q",
					tt.args, code, stdout, stderr, tt.want)
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "abc", 3}, {"threads", "threads", 0},
		{"threds", "threads", 1}, {"thraeds", "threads", 2}, {"kitten", "sitting", 3},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
