package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

func TestCapacityBadInputExitsTwo(t *testing.T) {
	u := "http://127.0.0.1:1/"
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no threshold", []string{u}, "--threshold"},
		{"rps threshold", []string{"--threshold", "rps>100", u}, "the rate is what capacity searches"},
		{"bad threshold", []string{"--threshold", "p99<", u}, "--threshold"},
		{"from above to", []string{"--threshold", "p99<1ms", "--from", "500", "--to", "100", u}, "--from 500 is above --to 100"},
		{"precision zero", []string{"--threshold", "p99<1ms", "--precision", "0%", u}, "--precision"},
		{"precision over 50%", []string{"--threshold", "p99<1ms", "--precision", "60%", u}, "--precision"},
		{"precision without %", []string{"--threshold", "p99<1ms", "--precision", "0.02", u}, "--precision"},
		{"short step", []string{"--threshold", "p99<1ms", "--step", "500ms", u}, "--step"},
		{"bad confirm", []string{"--threshold", "p99<1ms", "--confirm", "200ms", u}, "--confirm"},
		{"max steps zero", []string{"--threshold", "p99<1ms", "--max-steps", "0", u}, "--max-steps"},
		{"zero from", []string{"--threshold", "p99<1ms", "--from", "0", u}, "--from"},
		{"with -R", []string{"--threshold", "p99<1ms", "-R", "100", u}, "-R/--rate: not with capacity"},
		{"with -n", []string{"--threshold", "p99<1ms", "-n", "100", u}, "-n/--requests: not with capacity"},
		{"with --shard", []string{"--threshold", "p99<1ms", "--shard", "0/2", u}, "--shard: not with capacity"},
		{"with --pipeline", []string{"--threshold", "p99<1ms", "--pipeline", "4", u}, "--pipeline: not with capacity"},
		{"with --runs", []string{"--threshold", "p99<1ms", "--runs", "3", u}, "--runs: not with capacity"},
		{"with --log-requests", []string{"--threshold", "p99<1ms", "--log-requests", "r.csv", u}, "--log-requests: not with capacity"},
		{"server figure without a server", []string{"--threshold", "server_rss_peak<1GiB", u}, "--pid or --exec"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := pummel(t.Context(), append([]string{"capacity"}, tc.args...)...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if code != exitUsage || len(lines) != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and one line with %q", code, stderr, tc.want)
			}
		})
	}
}

// capacitySecret is a header value no output may show.
const capacitySecret = "capacity-s3cret"

// capacitySearch runs a short search and returns its exit code, stdout
// and JSON result.
func capacitySearch(t *testing.T, args ...string) (int, string, stats.Result) {
	t.Helper()
	if testing.Short() {
		t.Skip("a capacity search takes seconds")
	}
	out := filepath.Join(t.TempDir(), "capacity.json")
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	args = append([]string{"capacity", "-q", "--step-warmup", "500ms", "-o", out}, args...)
	code, stdout, stderr := pummel(ctx, args...)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("exit %d, stderr %q: %v", code, stderr, err)
	}
	if strings.Contains(string(data), capacitySecret) {
		t.Errorf("capacity.json holds the secret header's value")
	}
	var res stats.Result
	if err := json.Unmarshal(data, &res); err != nil || res.Capacity == nil {
		t.Fatalf("capacity.json: %v, capacity %v", err, res.Capacity)
	}
	return code, stdout, res
}

// TestCapacityFindsAKnownCapacity searches a queue served at 2 ms a
// request, 500 requests/s: the answer lies within 5% below it (or 1%
// above: see below), confirmed, every step above 105% of it failed and
// every step under 90% passed. Above the capacity the queue grows by the
// excess: over a step's 2.5 s (warm-up included) its last requests wait
// (rate/500 − 1) × 2.5 s, 25 ms at 1% over, past the SLO's 20 ms; below
// it they wait 2 ms, which leaves room for a busy machine's noise.
func TestCapacityFindsAKnownCapacity(t *testing.T) {
	if raceDetector {
		// A millisecond's hiccup of a step's p99 decides it: under -race,
		// beside other packages' tests, the noise is the detector's.
		// .ci/run runs this test again without -race.
		t.Skip("judges latency to the millisecond: run without -race")
	}
	const capacity = 500.0
	u := fixture.Queue(t, time.Second/capacity)
	code, stdout, res := capacitySearch(t, "-c", "32", "-t", "1", "--step", "2s", "--confirm", "2s", "--threshold", "p99<20ms", "--threshold", "errors<1%", u)
	c := res.Capacity
	if code != exitOK || c.Rate == nil || !c.Confirmed || c.LimitedBy != stats.LimitServer {
		t.Fatalf("exit %d, capacity %+v; stdout:\n%s", code, c, stdout)
	}
	if *c.Rate < 0.95*capacity || *c.Rate > 1.01*capacity {
		t.Errorf("capacity %g, want within 5%% below %g; stdout:\n%s", *c.Rate, capacity, stdout)
	}
	if res.Steps[0].Verdict != stats.VerdictProbe || res.Steps[0].TargetRate != 0 {
		t.Errorf("first step %s at %g, want the probe", res.Steps[0].Verdict, res.Steps[0].TargetRate)
	}
	for _, st := range res.Steps {
		switch {
		case st.TargetRate > 1.05*capacity && st.Passed:
			t.Errorf("the step at %g passed, above 105%% of %g", st.TargetRate, capacity)
		case st.TargetRate > 0 && st.TargetRate < 0.9*capacity && !st.Passed:
			t.Errorf("the step at %g failed (%s), under 90%% of %g", st.TargetRate, st.Why, capacity)
		}
	}
	if !strings.Contains(stdout, "Capacity: ") || !strings.Contains(stdout, "confirmed over 2s") {
		t.Errorf("stdout has no verdict:\n%s", stdout)
	}
}

// TestCapacityShortOfConnections: one connection to a server that takes
// 10 ms a request carries 100 requests/s at most, however fast the server
// could go with more: the search ends client-limited, saying raise -c,
// and never reports that as the server's capacity.
func TestCapacityShortOfConnections(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{Delay: 10 * time.Millisecond})
	code, stdout, res := capacitySearch(t, "-c", "1", "-t", "1", "--step", "1s", "--to", "1000", "--confirm", "0", "--threshold", "p90<1s", srv.URL())
	c := res.Capacity
	if c.LimitedBy != stats.LimitClient || !strings.Contains(c.Why, "raise -c") || code != exitOK {
		t.Fatalf("exit %d, capacity %+v; want client-limited, raise -c; stdout:\n%s", code, c, stdout)
	}
	if c.Rate == nil || *c.Rate > 100 || !strings.Contains(stdout, "at least") {
		t.Errorf("capacity %v: want a lower bound of at most 100/s; stdout:\n%s", c.Rate, stdout)
	}
}

// TestCapacityRangeAndNone: every rate up to --to passes (the answer is a
// lower bound, exit 0), or none does (exit 3).
func TestCapacityRangeAndNone(t *testing.T) {
	u := targetURL(t)
	step := "1s"
	if raceDetector {
		// Beside other packages' tests under -race, a stall of tens of
		// milliseconds once left a 1 s step at 48.68 of 50 requests/s,
		// short of keeping its rate; a 2 s step halves what one costs.
		step = "2s"
	}
	code, stdout, res := capacitySearch(t, "-c", "4", "-t", "1", "--step", step, "--from", "50", "--to", "100", "--confirm", "1s", "--threshold", "p90<1s", u)
	if c := res.Capacity; code != exitOK || c.LimitedBy != stats.LimitRange || c.Rate == nil || *c.Rate != 100 || !c.Confirmed {
		t.Errorf("range: exit %d, capacity %+v; stdout:\n%s", code, c, stdout)
	}
	code, stdout, res = capacitySearch(t, "-c", "4", "-t", "1", "--step", "1s", "--to", "100", "--threshold", "p50<1ns", "-H", "Authorization: Bearer "+capacitySecret, u)
	// The lowest rate fails with every response over the bound: no burst of noise, so it
	// stands without running again, and the server is the limit.
	if c := res.Capacity; code != exitCondition || c.Rate != nil || len(res.Steps) != 1 || !strings.Contains(stdout, "no rate from 10 req/s") || strings.Contains(stdout, capacitySecret) {
		t.Errorf("none: exit %d, capacity %+v, %d steps; stdout:\n%s", code, c, len(res.Steps), stdout)
	}
}

// TestCapacityHelpShowsWhatItTakes: the help of capacity lists its search
// flags and none of the load flags it refuses.
func TestCapacityHelpShowsWhatItTakes(t *testing.T) {
	code, stdout, _ := pummel(t.Context(), "capacity", "--help")
	if code != 0 || !strings.Contains(stdout, "--step-warmup D") || !strings.Contains(stdout, "the SLO every step must meet") {
		t.Fatalf("exit %d, help:\n%s", code, stdout)
	}
	for _, f := range notWithCapacity {
		if strings.Contains(stdout, "--"+f.name+" ") || strings.Contains(stdout, "--"+f.name+"\n") {
			t.Errorf("help lists --%s, which capacity refuses", f.name)
		}
	}
}

// TestCapacityOfASilentServerExitsOne: a server that never answers makes
// the search impossible: exit 1, as a load that got no answer, not 2.
func TestCapacityOfASilentServerExitsOne(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{Stall: true})
	code, _, errOut := pummel(t.Context(), "capacity", "-c", "1", "-t", "1", "--step", "1s", "--step-warmup", "0s", "--timeout", "200ms",
		"--threshold", "p99<1s", srv.URL())
	if code != exitFailed || !strings.Contains(errOut, "did not answer one request") {
		t.Errorf("exit %d, stderr %q; want 1 and the server named silent", code, errOut)
	}
}
