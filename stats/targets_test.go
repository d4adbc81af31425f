package stats

import (
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/stats/record"
)

// targetsResult is a result of two targets: n responses of target 0 at
// 1 ms, one of target 1 at 5 ms with status 500, and errs timeouts of
// target 1.
func targetsResult(t *testing.T, n int, errs int64) Result {
	t.Helper()
	rec := record.New()
	rec.SplitTargets(2)
	var b record.Batch
	for range n {
		if b.Add(record.Outcome{Latency: time.Millisecond, Status: 200}) {
			rec.AddBatch(&b)
		}
	}
	b.Add(record.Outcome{Latency: 5 * time.Millisecond, Status: 500, Rejected: true, Target: 1})
	rec.AddBatch(&b)
	rec.AddErrors(record.Timeout, "no response", errs)
	rec.AddTargetErrors(1, record.Timeout, errs)
	res := FromRecorder(rec, time.Second, nil)
	for i := range res.Targets {
		res.Targets[i].Method, res.Targets[i].URL = "GET", "http://h/"+string(rune('a'+i))
	}
	return res
}

func TestTargetsFromRecorder(t *testing.T) {
	res := targetsResult(t, 10, 2)
	a, b := res.Targets[0], res.Targets[1]
	if a.Requests != 10 || a.Status["200"] != 10 || a.Latency == nil || a.Latency.Max != 1000 {
		t.Errorf("target 1 = %+v", a)
	}
	if b.Requests != 1 || b.Errors.Status != 1 || b.Errors.Timeout != 2 || b.Latency.P99 != 5000 {
		t.Errorf("target 2 = %+v", b)
	}
}

func TestCombineMergesTargets(t *testing.T) {
	out, err := Combine([]Result{targetsResult(t, 10, 2), targetsResult(t, 30, 1)}, Sequential)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Targets) != 2 || out.Targets[0].Requests != 40 || out.Targets[1].Requests != 2 || out.Targets[1].Errors.Timeout != 3 ||
		out.Targets[0].Status["200"] != 40 {
		t.Fatalf("merged targets %+v", out.Targets)
	}
	h, err := DecodeHistogram(out.Targets[0].LatencyHistogram)
	if err != nil || h.TotalCount() != 40 {
		t.Fatalf("merged histogram: %v, %v", h, err)
	}
	for _, change := range []func(*Target){
		func(t *Target) { t.URL = "http://h/other" },
		func(t *Target) { t.Weight++ },    // the same requests, another mix
		func(t *Target) { t.Members = 7 }, // a row of other targets behind the same first one
	} {
		other := targetsResult(t, 1, 0)
		change(&other.Targets[1])
		out, err = Combine([]Result{targetsResult(t, 10, 2), other}, Sequential)
		if err != nil || out.Targets != nil || !strings.Contains(strings.Join(out.Warnings, "\n"), "different target lists") {
			t.Fatalf("mismatched lists: targets %v, warnings %v, %v", out.Targets, out.Warnings, err)
		}
	}
}
