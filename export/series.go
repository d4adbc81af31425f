package export

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Kind is what a series holds.
type Kind uint8

// The kinds of series.
const (
	Counter Kind = iota
	Gauge
	HistogramSeries
)

// Label is one label of a series.
type Label struct{ Name, Value string }

// Series is one time series: its name (units in it, as Prometheus'
// conventions ask) and its labels, sorted by name.
type Series struct {
	Name   string
	Labels []Label
	Kind   Kind
}

// Snapshot is every series of one load at one time. A load's snapshots
// share its Series, which are never changed once built.
type Snapshot struct {
	At time.Time
	// Final marks a load's last snapshot, whose figures are its result's.
	Final  bool
	Series []Series
	// Points holds one point per series, in Series' order.
	Points []Point
}

// Point is one series' value at a snapshot's time: Value for a counter
// or a gauge, Hist for a histogram.
type Point struct {
	Value float64
	Hist  *Histogram
	// Absent marks a series with no value at this time (a watched
	// server not sampled yet).
	Absent bool
}

// sameSeries reports whether two snapshots are of the same load's series.
func sameSeries(a, b *Snapshot) bool {
	return len(a.Series) == len(b.Series) && (len(a.Series) == 0 || &a.Series[0] == &b.Series[0])
}

// labelNamePattern is what Prometheus accepts as a label name.
var labelNamePattern = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// Reserved names the labels pummel sets itself (run may be set: it names
// the run instead of the id pummel makes up).
var Reserved = []string{"shard", "target", "status_class", "class", "le", "pid", "step", "operation", "mode", "run_index"}

// ParseLabel reads a --export-label, k=v: k a Prometheus label name, not
// one pummel sets (Reserved), nor one reserved for Prometheus (__…); v
// any text but empty.
func ParseLabel(s string) (Label, error) {
	name, value, ok := strings.Cut(s, "=")
	switch {
	case !ok || value == "":
		return Label{}, fmt.Errorf("%q is not a label name=value (example: test=checkout)", s)
	case !labelNamePattern.MatchString(name):
		return Label{}, fmt.Errorf("%q is not a label name: letters, digits and _, not starting with a digit", name)
	case strings.HasPrefix(name, "__"):
		return Label{}, fmt.Errorf("%q: names starting with __ are Prometheus' own", name)
	case slices.Contains(Reserved, name):
		return Label{}, fmt.Errorf("%q is a label pummel sets itself", name)
	case !utf8.ValidString(value):
		return Label{}, fmt.Errorf("%q: the value is not UTF-8", name)
	}
	return Label{name, value}, nil
}

// withLabels returns base and more, sorted by name; a label of more
// replaces base's of the same name.
func withLabels(base []Label, more ...Label) []Label {
	out := make([]Label, 0, len(base)+len(more))
	for _, l := range base {
		if !slices.ContainsFunc(more, func(m Label) bool { return m.Name == l.Name }) {
			out = append(out, l)
		}
	}
	out = append(out, more...)
	slices.SortFunc(out, func(a, b Label) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// labelKey is a label set as one string, to find a load's earlier figures.
func labelKey(labels []Label) string {
	var b strings.Builder
	for _, l := range labels {
		fmt.Fprintf(&b, "%q=%q,", l.Name, l.Value)
	}
	return b.String()
}
