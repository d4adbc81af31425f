package render

import (
	"fmt"
	"path/filepath"

	"github.com/pummel-dev/pummel/stats"
)

// openLoopRows are the open-loop figures: one row per stage with its target
// and achieved rates, the uncorrected latency and the schedule lag.
func openLoopRows(r stats.Result) [][]string {
	var rows [][]string
	stages := r.Stages
	if len(stages) == 0 && r.TargetRate > 0 {
		stages = []stats.Result{r}
	}
	for i, st := range stages {
		l, lat := LatencyFormatter(st.Latency)
		name := "Rate"
		if len(stages) > 1 {
			name = fmt.Sprintf("Stage %d rate", i+1)
		}
		rows = append(rows, []string{name, fmt.Sprintf("%s of %s req/s; p50 %s, p99 %s, max %s", FormatRate(st.AchievedRate),
			st.TargetName(), lat(l.P50), lat(l.P99), lat(l.Max)),
			"achieved send rate; latency from each request's intended send time (corrected for coordinated omission)"})
	}
	if u := r.LatencyUncorrected; u != nil {
		rows = append(rows, []string{"Latency uncorrected p50 / p99", FormatTime(u.P50) + " / " + FormatTime(u.P99),
			"from the actual send, as tools without a schedule measure"})
	}
	if l := r.ScheduleLag; l != nil {
		rows = append(rows, []string{"Schedule lag p50 / p99 / max", fmt.Sprintf("%s / %s / %s, %s sends late", FormatTime(l.P50),
			FormatTime(l.P99), FormatTime(l.Max), FormatCount(l.LateSends)), "how late sends left against the schedule; late: over 2 ms"})
	}
	return rows
}

// latencyHow says where latency is measured from.
func latencyHow(c stats.Config) string {
	if len(c.Rates) > 0 {
		return "from each request's intended send time on the schedule to reading its whole response"
	}
	return "from writing a request to reading its whole response"
}

// runMetricRows are the seed-style rows of an --exec run: binary size,
// startup, idle RSS and RSS after load, as medians over the runs.
func runMetricRows(r stats.Result) [][]string {
	var rows [][]string
	if b := r.Environment.Binary; b != nil {
		rows = append(rows, []string{"Binary size", FormatBytes(float64(b.SizeBytes)),
			// The base name: a table to paste shows no local path.
			fmt.Sprintf("size of %s (SHA-256 %.12s…)", filepath.Base(b.Path), b.SHA256)})
	}
	runs := r.Runs
	if len(runs) == 0 && len(r.Server) > 0 && r.Server[0].StartupS != nil {
		runs = []stats.Result{r}
	}
	hows := map[string]string{
		"Startup":            "spawn to the first good response on the ready URL, polled about every 1 ms",
		"Idle RSS":           "median of 5 samples 100 ms apart, after the settle time, before the load",
		"Peak RSS":           "largest sample during the load (every 100 ms)",
		"RSS after load":     "sampled right after the load",
		"Server CPU/request": "the server's user + system CPU time during the load over the requests",
	}
	for _, name := range []string{"Startup", "Idle RSS", "Peak RSS", "RSS after load", "Server CPU/request"} {
		if v, ok := spanOf(runs, name); ok {
			rows = append(rows, []string{name, v, hows[name]})
		}
	}
	return rows
}
