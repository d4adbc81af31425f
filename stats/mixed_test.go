package stats

import (
	"strings"
	"testing"
)

func TestMixedLoads(t *testing.T) {
	base := Config{URL: "http://h/", Method: "GET", Connections: 4, Threads: 2, DurationS: 10, KeepAlive: true, Command: "pummel -c 4 http://h/"}
	with := func(change func(c *Config)) Result {
		c := base
		change(&c)
		return Result{Config: c}
	}
	for _, tt := range []struct {
		name  string
		other Result
		want  string // "" when the loads are one
	}{
		{"same load", with(func(*Config) {}), ""},
		{"same load, longer, other threads", with(func(c *Config) { c.DurationS, c.Threads, c.Command = 30, 1, "pummel -t1 -d30 http://h/" }), ""},
		{"pipelining 1 is none", with(func(c *Config) { c.Pipeline = 1 }), ""},
		{"other target", with(func(c *Config) { c.URL = "http://h/x" }), "(url differ)"},
		{"other method and rate", with(func(c *Config) { c.Method, c.Rates = "POST", []float64{100} }), "(method, rates differ)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := MixedLoads([]Result{{Config: base}, tt.other})
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("MixedLoads = %q, want %q", got, tt.want)
			}
		})
	}
	merged := Result{Config: Config{MergedCommands: []string{"pummel a", "pummel b"}}}
	if got := mergedCommands([]Result{merged, {Config: Config{Command: "pummel c"}}}); strings.Join(got, "; ") != "pummel a; pummel b; pummel c" {
		t.Errorf("mergedCommands = %q, want a merged result's own list, then the next command", got)
	}
}
