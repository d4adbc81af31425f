// Package figure is the catalogue of the figures pummel judges and
// compares: each figure's name (as --threshold and --max-regression write
// it), how to read it from a stats.Result, its unit and which way is
// better. Thresholds, regression bounds and the tables of `pummel compare`
// and --runs read figures only through it, so that one name means one
// number everywhere.
//
// A figure of the watched server (RSS, CPU per request, startup) reads
// every watched process and takes the worst of them, the highest: with
// two --pid's, a threshold, compare's table and --max-regression all judge
// the worse server.
package figure

import "github.com/pummel-dev/pummel/stats"

// Unit is what a figure measures, which decides how its bounds are read
// and its values printed.
type Unit int

const (
	// Time is in microseconds.
	Time Unit = iota
	// Bytes is a size in bytes.
	Bytes
	// Count is a number of requests or errors; a bound may take a share of
	// all outcomes instead (errors<0.1%).
	Count
	// Rate is in requests per second.
	Rate
)

// Need says what a figure needs beyond the load itself.
type Need int

const (
	// NeedNothing: every run has the figure.
	NeedNothing Need = iota
	// NeedServer: a watched server process (--pid or --exec).
	NeedServer
	// NeedExec: a server pummel started (--exec), for its startup time.
	NeedExec
)

// Figure is one figure of a result.
type Figure struct {
	// Name is the figure's name as a threshold writes it ("p99",
	// "server_rss_peak").
	Name string
	// Unit is what the figure measures.
	Unit Unit
	// HigherIsBetter is true for requests/s, false for every other
	// figure: the worst of several values is then the lowest, and a
	// regression a fall.
	HigherIsBetter bool
	// Need says what the figure needs beyond the load.
	Need Need
	// Latency is true for the response-time figures (p50 … max), which a
	// latency chart can draw a bound of.
	Latency bool
	// read reads the figure from one run's result; false when it lacks
	// the figure.
	read func(stats.Result) (float64, bool)
}

// Samples reads the figure from r: one value, or, for a server's figure of
// a result that merges --exec --runs (each run watched its own server
// process, so the merged result has none), one per run that has it. None
// when r lacks the figure.
func (f Figure) Samples(r stats.Result) []float64 {
	vs, _ := f.samples(r)
	return vs
}

// Gather reads the figure from each of rs, as Samples does, and counts
// the results that lack it, and for a server's figure of a merged --runs
// result, the runs that lack it: a table of several results shows the
// figure from those that have it and says how many did not.
func (f Figure) Gather(rs []stats.Result) (vs []float64, lacking int) {
	for _, r := range rs {
		got, lack := f.samples(r)
		vs, lacking = append(vs, got...), lacking+lack
	}
	return vs, lacking
}

// samples is Samples, with how many of the results it read lack the figure.
func (f Figure) samples(r stats.Result) (vs []float64, lacking int) {
	runs := []stats.Result{r}
	if f.Need != NeedNothing && len(r.Server) == 0 && len(r.Runs) > 0 {
		runs = r.Runs
	}
	for _, run := range runs {
		if v, ok := f.read(run); ok {
			vs = append(vs, v)
		} else {
			lacking++
		}
	}
	return vs, lacking
}

// Worst returns the value of vs (not empty) furthest from good: the lowest
// requests/s, the highest of every other figure.
func (f Figure) Worst(vs []float64) float64 {
	w := vs[0]
	for _, v := range vs[1:] {
		if f.HigherIsBetter == (v < w) {
			w = v
		}
	}
	return w
}
