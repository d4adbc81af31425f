package script

import (
	"bytes"
	"testing"
)

// A script sees which part of a sharded load its process runs, in setup
// and in init, for instance to give each part its own range of ids.
func TestWrkShard(t *testing.T) {
	const src = `
function setup(thread) thread:set("from_setup", wrk.shard.index .. "/" .. wrk.shard.count) end
function init(args) from_init = wrk.shard.index .. "/" .. wrk.shard.count end`
	tests := []struct {
		name         string
		index, count int
		want         string
	}{
		{"a part", 1, 3, "1/3"},
		{"the whole load", 0, 0, "0/1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := target
			tg.ShardIndex, tg.ShardCount = tt.index, tt.count
			p, err := Load(t.Context(), writeScript(t, src), Options{Target: tg, Output: &bytes.Buffer{}})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			ths, err := p.Threads(t.Context(), 1, "")
			if err != nil {
				t.Fatal(err)
			}
			if got := global(ths[0], "from_setup"); got != tt.want {
				t.Errorf("in setup: wrk.shard is %s, want %s", got, tt.want)
			}
			if got := global(ths[0], "from_init"); got != tt.want {
				t.Errorf("in init: wrk.shard is %s, want %s", got, tt.want)
			}
		})
	}
}
