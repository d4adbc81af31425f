package capacity

import (
	"testing"

	"github.com/pummel-dev/pummel/stats"
)

// TestJoinParts: a step measured on is one result: counts summed,
// histograms merged, one schedule over the whole and each watched
// process's figures over the whole.
func TestJoinParts(t *testing.T) {
	a, b := measured(t, 100, 300, 3, 1, 42), measured(t, 100, 100, 0, 1, 1)
	a.ScheduleLag = &stats.ScheduleLag{P50: 10, P99: 200, Max: 900, LateSends: 2}
	b.ScheduleLag = &stats.ScheduleLag{P50: 20, P99: 100, Max: 300, LateSends: 1}
	a.AttackS, a.AchievedRate, b.AttackS, b.AchievedRate = 3, 100, 1, 96
	a.Server = []stats.ServerUsage{{PID: 7, RSSBytes: stats.RSS{Idle: 10, Peak: 50, After: 40}, CPUSeconds: 2}}
	b.Server = []stats.ServerUsage{{PID: 7, RSSBytes: stats.RSS{Idle: 30, Peak: 45, After: 35}, CPUSeconds: 1}}
	j, err := joinParts([]stats.Result{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if j.Requests != 400 || j.TargetRate != 100 || j.AttackS != 4 || j.AchievedRate != 99 || j.Latency.Max < 42e3 {
		t.Errorf("joined %d requests at %g (achieved %g over %gs), max %g µs; want 400 at 100 (99 over 4s), max 42ms", j.Requests, j.TargetRate, j.AchievedRate, j.AttackS, j.Latency.Max)
	}
	if l := j.ScheduleLag; l == nil || l.LateSends != 3 || l.P50 != 20 || l.P99 != 200 || l.Max != 900 {
		t.Errorf("lag %+v; want 3 late sends and the worse of each figure", l)
	}
	s := j.Server[0]
	if s.RSSBytes != (stats.RSS{Idle: 10, Peak: 50, After: 35}) || s.CPUSeconds != 3 || s.CPUUsPerRequest != 7500 {
		t.Errorf("server %+v; want idle of the first, peak of both, after of the last, 3 CPU-s, 7,500 µs a request", s)
	}
	if single, _ := joinParts([]stats.Result{a}); single.Requests != 300 || single.ScheduleLag != a.ScheduleLag {
		t.Error("one part joins to itself")
	}
}
