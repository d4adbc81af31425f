package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/internal/h3fixture"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// One load run by N processes, as N machines of a Kubernetes Indexed Job
// run it (deploy/kubernetes), here on one machine: each process is given
// its part (--shard i/N) and one start (--start-at +2s), prints its result
// alone on stdout, and `pummel report --parallel -` merges the printed
// results, read from its standard input one after another, as from
// `kubectl logs`.
func TestShardsOnOneMachineMergeIntoTheWholeLoad(t *testing.T) {
	bin := pummelBinary(t)
	const parts = 3
	tests := []struct {
		name string
		load []string
		want int64
		h3   bool // over HTTP/3, to internal/h3fixture
	}{
		{"closed loop", []string{"-c", "6", "-n", "900"}, 900, false},
		{"open loop", []string{"-c", "6", "-R", "600", "-d", "1s"}, 600, false},
		{"HTTP/3", []string{"-c", "6", "--streams", "4", "-n", "900"}, 900, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // each waits two seconds for its start
			var served func() int64
			var target string
			load := tt.load
			if tt.h3 {
				srv := h3fixture.Start(t, h3fixture.Behaviour{})
				served, target = srv.Responses, srv.URL()
				load = append(load, "--http3", "--cacert", srv.CAFile())
			} else {
				srv := fixture.New(t, fixture.Behaviour{})
				served, target = srv.Requests, srv.URL()
			}
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // a bound, far above the seconds it takes
			defer cancel()
			outs := runParts(ctx, t, bin, parts, append(load, "-t", "1", "--timeout", "5s", target))

			merged := mergeParts(ctx, t, bin, outs)
			if merged.Requests != tt.want || served() != tt.want {
				t.Errorf("merged %d requests, the server counted %d; want %d", merged.Requests, served(), tt.want)
			}
			checkMergedHistogram(t, merged, outs)
			sh := merged.Shards
			if sh == nil || len(sh.Parts) != parts || sh.Missing != nil {
				t.Fatalf("shards %+v, want %d parts, none missing", sh, parts)
			}
			// Parts that counted --start-at from their own launches would
			// start 2 × launchGap apart; one launchGap leaves a busy
			// machine's late wake-ups room.
			skew := time.Duration(sh.StartSkewS * float64(time.Second))
			t.Logf("start skew %v", skew)
			if skew >= launchGap {
				t.Errorf("start skew %v, want under %v: the parts were launched %v apart, to start together", skew, launchGap, launchGap)
			}
		})
	}
}

// launchGap is how long runParts waits between the launches of two parts.
const launchGap = 250 * time.Millisecond

// runParts runs n parts of one load side by side, launched launchGap
// apart to start together at --start-at, two seconds after the first
// launch, and returns what each printed on stdout.
func runParts(ctx context.Context, t *testing.T, bin string, n int, load []string) [][]byte {
	t.Helper()
	cmds := make([]*exec.Cmd, n)
	outs := make([]bytes.Buffer, n)
	errs := make([]bytes.Buffer, n)
	// One absolute time for every part, as machines use: a relative +2s
	// would count from each process's own start, and measure how far
	// apart the test launched them rather than pummel's skew.
	startAt := time.Now().Add(2 * time.Second).UTC().Format(time.RFC3339Nano)
	for i := range cmds {
		if i > 0 {
			time.Sleep(launchGap)
		}
		args := append([]string{"--shard", fmt.Sprintf("%d/%d", i, n), "--start-at", startAt, "--format", "json", "-q"}, load...)
		cmds[i] = exec.CommandContext(ctx, bin, args...)
		cmds[i].Stdout, cmds[i].Stderr = &outs[i], &errs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	printed := make([][]byte, n)
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("part %d: %v: %s", i, err, errs[i].String())
		}
		if errs[i].Len() > 0 {
			t.Errorf("part %d wrote to stderr, which kubectl logs mixes with the results: %q", i, errs[i].String())
		}
		printed[i] = outs[i].Bytes()
	}
	return printed
}

// checkMergedHistogram checks that the merged latency histogram is the
// merge of the parts' own.
func checkMergedHistogram(t *testing.T, merged stats.Result, outs [][]byte) {
	t.Helper()
	want := record.NewHistogram()
	for i, out := range outs {
		var r stats.Result
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("part %d: %v", i, err)
		}
		h, err := stats.DecodeHistogram(r.LatencyHistogram)
		if err != nil {
			t.Fatal(err)
		}
		want.Merge(h)
	}
	got, err := stats.DecodeHistogram(merged.LatencyHistogram)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equals(want) {
		t.Errorf("merged histogram: %d values, p50 %d, p99 %d; the parts' merged: %d, p50 %d, p99 %d", got.TotalCount(),
			got.ValueAtQuantile(50), got.ValueAtQuantile(99), want.TotalCount(), want.ValueAtQuantile(50), want.ValueAtQuantile(99))
	}
}
