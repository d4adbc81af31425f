package figure

import (
	"slices"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/stats"
)

// twoServers watched two processes, the first better than the second in
// every server figure.
func twoServers() stats.Result {
	fast, slow := 0.010, 0.030
	return stats.Result{Server: []stats.ServerUsage{
		{PID: 1, RSSBytes: stats.RSS{Idle: 10 << 20, Peak: 20 << 20, After: 15 << 20}, CPUUsPerRequest: 5, StartupS: &fast},
		{PID: 2, RSSBytes: stats.RSS{Idle: 30 << 20, Peak: 90 << 20, After: 60 << 20}, CPUUsPerRequest: 40, StartupS: &slow},
	}}
}

func TestServerFiguresReadTheWorstServer(t *testing.T) {
	runs := stats.Result{Runs: []stats.Result{twoServers(), twoServers()}}
	runs.Runs[1].Server[1].RSSBytes.Peak = 100 << 20
	for _, tt := range []struct {
		name     string
		want     float64   // of twoServers
		wantRuns []float64 // of the runs
	}{
		{"server_rss_idle", 30 << 20, []float64{30 << 20, 30 << 20}},
		{"server_rss_peak", 90 << 20, []float64{90 << 20, 100 << 20}},
		{"server_rss_after", 60 << 20, []float64{60 << 20, 60 << 20}},
		{"server_cpu_per_request", 40, []float64{40, 40}},
		{"startup", 30_000, []float64{30_000, 30_000}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := Must(tt.name)
			if got := f.Samples(twoServers()); !slices.Equal(got, []float64{tt.want}) {
				t.Errorf("Samples(two servers) = %v, want [%v] (the worse server)", got, tt.want)
			}
			if got := f.Samples(runs); !slices.Equal(got, tt.wantRuns) {
				t.Errorf("Samples(--runs) = %v, want %v (each run's worse server)", got, tt.wantRuns)
			}
		})
	}
}

// A process that lacks a figure (an RSS never sampled, no startup with
// --pid) is left out; a result none of whose processes has it lacks it.
func TestServerFigureLacking(t *testing.T) {
	r := twoServers()
	r.Server[1].RSSBytes.Peak, r.Server[1].StartupS = 0, nil
	if got := Must("server_rss_peak").Samples(r); !slices.Equal(got, []float64{20 << 20}) {
		t.Errorf("peak with one unsampled process = %v, want the other's", got)
	}
	r.Server[0].StartupS = nil
	for _, name := range []string{"startup", "p99"} {
		if got := Must(name).Samples(r); len(got) != 0 {
			t.Errorf("%s of a result that lacks it = %v, want none", name, got)
		}
	}
}

func TestWorst(t *testing.T) {
	vs := []float64{300, 100, 200}
	for name, want := range map[string]float64{"rps": 100, "p99": 300, "errors": 300, "server_rss_peak": 300} {
		if got := Must(name).Worst(vs); got != want {
			t.Errorf("%s: Worst = %v, want %v", name, got, want)
		}
	}
}

func TestLookup(t *testing.T) {
	r := stats.Result{Status: map[string]int64{"200": 7, "503": 2, "504": 1}, Errors: stats.Errors{Timeout: 3},
		Latency: &stats.Latency{P999: 9}}
	for name, want := range map[string]float64{"status_503": 2, "status_5xx": 3, "status_200": 7, "errors_timeout": 3, "p99_9": 9, "p99.9": 9} {
		f, err := Lookup(name)
		if err != nil || !slices.Equal(f.Samples(r), []float64{want}) {
			t.Errorf("%s = %v (%v), want %v", name, f.Samples(r), err, want)
		}
	}
	for _, name := range []string{"p98", "status_6xx", "errors_other", ""} {
		if _, err := Lookup(name); err == nil || !strings.Contains(err.Error(), "unknown figure") {
			t.Errorf("Lookup(%q) = %v, want unknown figure", name, err)
		}
	}
}

func TestScheduleFigures(t *testing.T) {
	open := stats.Result{TargetRate: 100, AchievedRate: 98.5, ScheduleLag: &stats.ScheduleLag{P99: 1500, LateSends: 4}}
	for name, want := range map[string]float64{"achieved_rate": 98.5, "late_sends": 4, "lag_p99": 1500} {
		if got := Must(name).Samples(open); !slices.Equal(got, []float64{want}) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
		if got := Must(name).Samples(stats.Result{RequestsPerS: 5}); len(got) != 0 {
			t.Errorf("%s of a closed-loop result = %v, want none", name, got)
		}
	}
}

// TestGatherCountsWhatLacksTheFigure: Gather keeps the samples of the
// results (or merged runs) that have a figure and counts those that lack
// it, for a server's figure and a client's alike.
func TestGatherCountsWhatLacksTheFigure(t *testing.T) {
	noServer := stats.Result{Latency: &stats.Latency{P99: 7}}
	noResponse := twoServers()
	merged := stats.Result{Latency: &stats.Latency{P99: 8}, Runs: []stats.Result{twoServers(), noServer}}
	for _, tt := range []struct {
		name    string
		rs      []stats.Result
		want    []float64
		lacking int
	}{
		{"server_rss_peak", []stats.Result{twoServers(), noServer, twoServers()}, []float64{90 << 20, 90 << 20}, 1},
		{"server_rss_peak", []stats.Result{merged}, []float64{90 << 20}, 1},
		{"p99", []stats.Result{noServer, noResponse}, []float64{7}, 1},
		{"p99", []stats.Result{merged, noServer}, []float64{8, 7}, 0},
	} {
		vs, lacking := Must(tt.name).Gather(tt.rs)
		if !slices.Equal(vs, tt.want) || lacking != tt.lacking {
			t.Errorf("%s over %d results: %v, %d lacking; want %v, %d", tt.name, len(tt.rs), vs, lacking, tt.want, tt.lacking)
		}
	}
}
