package chart

import (
	"fmt"

	"github.com/pummel-dev/pummel/stats"
)

// mib is a mebibyte, the unit of the RSS axis.
const mib = 1 << 20

// ServerRSS draws the resident memory of each watched server process
// over the load, in MiB against seconds from the start of the load: one
// line per process, or per process and run with --runs. It is an error if
// r holds no RSS series (the run watched no server).
func ServerRSS(r stats.Result, path string) error {
	p := newPanel("Server memory (RSS) during the load", "time since the load started (s)", "RSS (MiB)")
	drawn := 0
	for _, s := range rssSeries(r) {
		pts := make(xys, len(s.samples))
		for i, x := range s.samples {
			pts[i] = xy{X: x.T, Y: float64(x.Bytes) / mib}
		}
		addLine(p, pts, lineStyle(drawn), s.name)
		drawn++
	}
	if drawn == 0 {
		return fmt.Errorf("chart %s: the result has no server RSS series (watch a server with --pid or --exec)", path)
	}
	p.X.Min, p.Y.Min = 0, 0
	p.Y.Max *= headroom + headroomPerEntry*float64(drawn)
	return savePanel(p, path)
}

// namedSeries is one line of the RSS chart.
type namedSeries struct {
	name    string
	samples []stats.RSSSample
}

// rssSeries returns r's RSS series with their legend names: each run's
// when r holds several runs, else r's own.
func rssSeries(r stats.Result) []namedSeries {
	var out []namedSeries
	add := func(prefix string, servers []stats.ServerUsage) {
		for _, s := range servers {
			if len(s.RSSSeries) > 0 {
				out = append(out, namedSeries{fmt.Sprintf("%spid %d", prefix, s.PID), s.RSSSeries})
			}
		}
	}
	if len(r.Runs) == 0 {
		add("", r.Server)
	}
	for i, run := range r.Runs {
		add(fmt.Sprintf("run %d, ", i+1), run.Server)
	}
	return out
}

// hasRSS reports whether r holds an RSS series to draw.
func hasRSS(r stats.Result) bool {
	return len(rssSeries(r)) > 0
}
