package main

import (
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/internal/fixture"
)

func TestDryRunChecksAndSendsNothing(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	tests := []struct {
		name  string
		args  []string
		code  int
		wants []string
	}{
		{"a part of an open-loop load", []string{"--shard", "1/3", "-c", "1000", "-t", "2", "-R", "3000", "-d", "30s", "--start-at", "+1h"}, exitOK,
			[]string{"  2 threads and 1000 connections\n", "Shard 1/3: 333 of the 1000 connections, 1000 of the 3000 req/s\n", "Start at ", "nothing was sent"}},
		{"a part of a counted load", []string{"--shard", "0/3", "-c", "10", "-n", "1000"}, exitOK,
			[]string{"Shard 0/3: 4 of the 10 connections, 334 of the 1000 requests\n"}},
		// -R takes a count's suffixes, as rps>=3K does: K for k as well
		{"rates with suffixes", []string{"--shard", "1/3", "-c", "10", "-R", "3K,6k", "-d", "30s"}, exitOK,
			[]string{"Shard 1/3: 3 of the 10 connections, 1000 of the 3000 req/s, 2000 of the 6000 req/s\n"}},
		{"a connection sent elsewhere", []string{"-n", "1", "--connect-to", "::127.0.0.2:9"}, exitOK,
			[]string{"Connect to 127.0.0.2:9 (--connect-to, --resolve)\n"}},
		{"a ramp", []string{"--shard", "1/2", "-c", "10", "-R", "100..2000,2000", "-d", "30s"}, exitOK,
			[]string{"Shard 1/2: 5 of the 10 connections, 50..1000 of the 100..2000 req/s, 1000 of the 2000 req/s\n"}},
		{"a bad flag", []string{"--shard", "3/3"}, exitUsage, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := pummel(t.Context(), append(append([]string{"--dry-run"}, tt.args...), srv.URL())...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, stderr)
			}
			for _, want := range tt.wants {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
		})
	}
	if n := srv.Connections(); n != 0 {
		t.Errorf("the server saw %d connections, want none", n)
	}
}
