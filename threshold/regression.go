package threshold

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/figure"
	"github.com/pummel-dev/pummel/stats/render"
)

// DefaultRegressionFigure is the figure a regression bound without a name
// ("5%") applies to.
const DefaultRegressionFigure = "rps"

// Regression bounds how much worse a new set of results may be than a
// base: "5%" (requests/s may fall by at most 5%) or "p99=10%" (p99 may
// rise by at most 10%). For requests/s a regression is a fall; for every
// other figure (latencies, errors, server RSS, CPU, startup) a rise.
type Regression struct {
	text string
	name string
	fig  figure.Figure
	pct  float64
}

// ParseRegression reads [FIGURE=]PERCENT%, the figure named as in a
// threshold (default rps). Errors are one line, without the flag's name.
func ParseRegression(s string) (Regression, error) {
	g := Regression{text: strings.TrimSpace(s), name: DefaultRegressionFigure}
	bound := g.text
	if name, rest, ok := strings.Cut(g.text, "="); ok {
		g.name, bound = strings.TrimSpace(name), strings.TrimSpace(rest)
	}
	var err error
	if g.fig, err = figure.Lookup(g.name); err != nil {
		return g, err
	}
	num, ok := strings.CutSuffix(bound, "%")
	// !(pct >= 0) refuses NaN too, which no comparison would ever pass.
	if g.pct, err = strconv.ParseFloat(num, 64); !ok || err != nil || !(g.pct >= 0) || math.IsInf(g.pct, 0) {
		return g, fmt.Errorf("%q is not a percentage (examples: 5%%, p99=10%%)", bound)
	}
	return g, nil
}

// String returns the bound as written.
func (g Regression) String() string { return g.text }

// Check compares the median of the figure over next with its median over
// base. It returns one line describing a regression past the bound, or ""
// when there is none; an error when a side lacks the figure.
func (g Regression) Check(base, next []stats.Result) (string, error) {
	b, err := g.median(base, "BASE")
	if err != nil {
		return "", err
	}
	n, err := g.median(next, "NEW")
	if err != nil {
		return "", err
	}
	change, worse := n-b, "rose"
	if g.fig.HigherIsBetter {
		change, worse = b-n, "fell"
	}
	if change <= 0 || b != 0 && change/b*100 <= g.pct {
		return "", nil
	}
	by := "from 0"
	if b != 0 {
		by = fmt.Sprintf("by %s%%", render.FormatSignificant(change/b*100))
	}
	return fmt.Sprintf("%s %s %s (%s → %s), past --max-regression %s", g.name, worse, by,
		display(g.fig.Unit, b), display(g.fig.Unit, n), g.text), nil
}

// median is the median of the figure over a side's results: each
// result's samples (one per run of --exec --runs; a server figure's value
// is the worst watched server's, as a threshold reads it).
func (g Regression) median(rs []stats.Result, side string) (float64, error) {
	var all []float64
	for _, r := range rs {
		vs := g.fig.Samples(r)
		if len(vs) == 0 {
			return 0, fmt.Errorf("%s lacks %s (no response answered, or no server watched)", side, g.name)
		}
		all = append(all, vs...)
	}
	return stats.Median(all), nil
}

// display prints a figure's value, in its base unit (µs, bytes, a count,
// requests/s), as the rest of pummel's output (the compare table) does, in
// the unit its own size chooses: "23.40ms", "22.65MiB", "1,234",
// "55,600.00" (requests/s).
func display(u figure.Unit, v float64) string {
	switch u {
	case figure.Time:
		return render.FormatTime(v)
	case figure.Bytes:
		return render.FormatBytes(v)
	case figure.Count:
		return render.FormatCountOf(v)
	}
	return render.FormatRate(v)
}
