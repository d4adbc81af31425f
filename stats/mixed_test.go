package stats

import (
	"strings"
	"testing"
)

func TestMixedLoads(t *testing.T) {
	base := RunConfig{URL: "http://h/", Method: "GET", Connections: 4, Threads: 2, DurationS: 10, KeepAlive: true, Command: "pummel -c 4 http://h/"}
	with := func(change func(c *RunConfig)) Result {
		c := base
		change(&c)
		return Result{Config: c}
	}
	for _, tt := range []struct {
		name  string
		other Result
		want  string // "" when the loads are one
	}{
		{"same load", with(func(*RunConfig) {}), ""},
		{"same load, longer, other threads", with(func(c *RunConfig) { c.DurationS, c.Threads, c.Command = 30, 1, "pummel -t1 -d30 http://h/" }), ""},
		{"pipelining 1 is none", with(func(c *RunConfig) { c.Pipeline = 1 }), ""},
		{"other target", with(func(c *RunConfig) { c.URL = "http://h/x" }), "(url differ)"},
		{"other method and rate", with(func(c *RunConfig) { c.Method, c.Rates = "POST", []float64{100} }), "(method, rates differ)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := MixedLoads([]Result{{Config: base}, tt.other})
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("MixedLoads = %q, want %q", got, tt.want)
			}
		})
	}
	merged := Result{Config: RunConfig{MergedCommands: []string{"pummel a", "pummel b"}}}
	if got := mergedCommands([]Result{merged, {Config: RunConfig{Command: "pummel c"}}}); strings.Join(got, "; ") != "pummel a; pummel b; pummel c" {
		t.Errorf("mergedCommands = %q, want a merged result's own list, then the next command", got)
	}
}
