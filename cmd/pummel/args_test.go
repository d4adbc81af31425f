package main

import (
	"slices"
	"testing"
)

func TestNormalizeArgs(t *testing.T) {
	spec := flagSpec{
		values: map[string]bool{"t": true, "threads": true, "c": true, "d": true, "n": true, "H": true, "header": true, "o": true, "output": true},
		bools:  map[string]bool{"k": true, "latency": true},
		long:   map[string]string{"t": "threads", "c": "connections", "d": "duration", "n": "requests", "H": "header", "k": "keepalive", "o": "output"},
	}
	commands := map[string]bool{"run": true, "serve": true}
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"wrk attached values", []string{"-t16", "-c1024", "-d10m", "--latency", "http://h/"},
			[]string{"--threads", "16", "--connections", "1024", "--duration", "10m", "--latency", "http://h/"}},
		{"separate values", []string{"-t", "16", "http://h/"}, []string{"--threads", "16", "http://h/"}},
		{"long with equals", []string{"--threads=16", "http://h/"}, []string{"--threads=16", "http://h/"}},
		{"short with equals", []string{"-t=16", "http://h/"}, []string{"--threads=16", "http://h/"}},
		{"flags after the URL", []string{"http://h/", "-c", "10", "-k"}, []string{"--connections", "10", "--keepalive", "http://h/"}},
		{"ab line", []string{"-k", "-c", "32", "-n", "40000", "-H", "Authorization: Bearer x", "http://h/api"},
			[]string{"--keepalive", "--connections", "32", "--requests", "40000", "--header", "Authorization: Bearer x", "http://h/api"}},
		{"header value starting with a dash", []string{"-H", "-x: y", "http://h/"}, []string{"--header", "-x: y", "http://h/"}},
		{"suffix counts", []string{"-c1k", "-n", "1M", "u"}, []string{"--connections", "1k", "--requests", "1M", "u"}},
		{"both spellings of one flag", []string{"-o", "a.json", "--output", "b.md", "u"}, []string{"--output", "a.json", "--output", "b.md", "u"}},
		{"command stays first", []string{"run", "u", "-c2"}, []string{"run", "--connections", "2", "u"}},
		{"unknown flag left for the parser", []string{"-x", "u"}, []string{"-x", "u"}},
		{"after double dash untouched", []string{"u", "--", "-c", "1"}, []string{"u", "--", "-c", "1"}},
		{"value flag at the end", []string{"u", "-c"}, []string{"--connections", "u"}},
		{"attached value holding '='", []string{"-HCookie: a=b", "u"}, []string{"--header", "Cookie: a=b", "u"}},
		{"single dash is positional", []string{"-"}, []string{"-"}},
		{"empty", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := normalizeArgs(scanArgs(tt.in, spec, commands))
			if !slices.Equal(got, tt.want) {
				t.Errorf("normalizeArgs(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
