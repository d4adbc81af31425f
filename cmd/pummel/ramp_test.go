package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

func TestRampBadInputExitsTwo(t *testing.T) {
	for _, rate := range []string{"0..0", "-5..10", "5..-1", "5..20000001", "20000001..5", "..5", "5..", "1..2..3", "0..0,100", "..", "fast..10"} {
		t.Run(rate, func(t *testing.T) {
			code, stdout, stderr := pummel(t.Context(), "-R", rate, "-d", "2s", "http://127.0.0.1:1/")
			if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "-R/--rate") || stdout != "" {
				t.Errorf("-R %s: exit %d, stderr %q; want %d and one line naming -R/--rate", rate, code, stderr, exitUsage)
			}
		})
	}
}

// -R 50..150 -d 2s sends the ramp's integral, (50+150)/2 × 2 = 200
// requests, 75 in its first second and 125 in its second.
func TestRampRun(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	code, stdout, stderr := pummel(t.Context(), "-R", "50..150", "-d", "2s", "-c", "8", srv.URL(), "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res stats.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Requests != 200 || srv.Requests() != 200 {
		t.Fatalf("%d responses, the server saw %d requests; want 200", res.Requests, srv.Requests())
	}
	if res.TargetRate != 100 || res.Ramp == nil || *res.Ramp != (stats.Ramp{From: 50, To: 150}) ||
		len(res.Config.Ramps) != 1 || res.Config.Ramps[0] != (stats.Ramp{From: 50, To: 150}) || res.Config.Rates[0] != 100 {
		t.Errorf("target %g, ramp %v, config rates %v ramps %v; want the mean 100 and the ramp 50..150", res.TargetRate, res.Ramp, res.Config.Rates, res.Config.Ramps)
	}
	// The timeline's seconds: 75 then 125 on a quiet machine; a busy one
	// moves a few responses across the line.
	if len(res.Timeline) < 2 {
		t.Fatalf("timeline %+v, want two seconds", res.Timeline)
	}
	first, second := res.Timeline[0].Requests, res.Timeline[1].Requests
	if ratio := float64(second) / float64(first); first < 55 || first > 95 || ratio < 1.3 || ratio > 2.3 {
		t.Errorf("%d responses in the first second and %d in the second; want about 75 and 125", first, second)
	}
}
