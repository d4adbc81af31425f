package chart

import (
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

// result builds a result of seconds seconds at rps responses per second,
// latencies spread from base to a few times base, with real histograms.
// With rss, the server's RSS grows by 1 MiB a second.
func result(t *testing.T, seconds int, rps int, base time.Duration, rss bool) stats.Result {
	t.Helper()
	all := record.NewHistogram()
	var r stats.Result
	for s := range seconds {
		h := record.NewHistogram()
		for i := range rps {
			ns := int64(base) + int64(base)*int64(i%100)/40 + int64(i%997)*int64(base)/100
			if err := h.RecordValue(ns); err != nil {
				t.Fatal(err)
			}
		}
		all.Merge(h)
		sec, err := stats.NewSecond(float64(s+1), h, stats.Errors{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		r.Timeline = append(r.Timeline, sec)
	}
	var err error
	if r.LatencyHistogram, err = stats.EncodeHistogram(all); err != nil {
		t.Fatal(err)
	}
	r.Requests = all.TotalCount()
	if rss {
		usage := stats.ServerUsage{PID: 4242}
		for i := range seconds*10 + 1 {
			usage.RSSSeries = append(usage.RSSSeries, stats.RSSSample{T: float64(i) / 10, Bytes: 20<<20 + int64(i)<<20/10})
		}
		r.Server = []stats.ServerUsage{usage}
	}
	return r
}

func TestWriteAll(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "charts")
	results := []Named{
		{Name: "fast server", Result: result(t, 3, 2000, time.Millisecond, true)},
		{Name: "slow", Result: result(t, 2, 500, 4*time.Millisecond, false)},
	}
	paths, err := WriteAll(dir, results)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	want := []string{
		"spectrum.svg", "spectrum.png",
		"timeline-fast-server.svg", "timeline-fast-server.png", "rss-fast-server.svg", "rss-fast-server.png",
		"timeline-slow.svg", "timeline-slow.png",
	}
	if !slices.Equal(names, want) {
		t.Fatalf("wrote %q, want %q", names, want)
	}
	svgs := map[string][]string{
		"spectrum.svg":             {"Latency by percentile", "latency (ms)", "percentile (each step to the right adds a nine)", "99.9%", "fast server", "slow"},
		"timeline-fast-server.svg": {"requests/s", "latency (ms)", "time (s)", "p50", "p99"},
		"rss-fast-server.svg":      {"RSS (MiB)", "time since the load started (s)", "pid 4242"},
	}
	for name, texts := range svgs {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			if !strings.Contains(string(b), ">"+text+"<") {
				t.Errorf("%s lacks the text %q", name, text)
			}
		}
	}
	for _, p := range paths {
		if filepath.Ext(p) == ".png" {
			checkPNG(t, p)
		}
	}
}

// TestChartReplacesAFileWhole: a chart written over an earlier file
// replaces it whole (a new file renamed over it, as internal/wholefile
// writes every file), rather than rewriting the earlier file in place,
// so that a reader of the old one never sees half of the new.
func TestChartReplacesAFileWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bars.svg")
	if err := os.WriteFile(path, []byte("the earlier chart"), 0o600); err != nil {
		t.Fatal(err)
	}
	old, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := Bars([]Bar{{Group: "64", Series: "pummel", Value: 1, Low: 1, High: 1}}, "t", "y", path); err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(old); err != nil || string(b) != "the earlier chart" {
		t.Errorf("the earlier file now reads %.40q, %v; want it untouched", b, err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("%s: %.40q, %v; want the new chart", path, b, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("%s: %v, %v; want the earlier file's mode, 0600", path, fi, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("%d files in the directory, want the chart alone", len(entries))
	}
}

// checkPNG fails unless path is a PNG of Width × Height at DPI.
func checkPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 675 {
		t.Errorf("%s is %dx%d, want 1200x675", path, b.Dx(), b.Dy())
	}
}

func TestChartsOfResultsWithoutTheData(t *testing.T) {
	empty := stats.Result{}
	dir := t.TempDir()
	tests := []struct {
		name string
		draw func(path string) error
		want string
	}{
		{"spectrum without latencies", func(p string) error { return PercentileSpectrum([]Named{{"x", empty}}, p) }, "no latencies"},
		{"timeline without timeline", func(p string) error { return Timeline(empty, p) }, "no timeline"},
		{"RSS without series", func(p string) error { return ServerRSS(empty, p) }, "--pid"},
		{"unknown format", func(p string) error { return Timeline(result(t, 1, 10, time.Millisecond, false), p+".gif") }, ".svg or .png"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.draw(filepath.Join(dir, "chart.svg"))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
	paths, err := WriteAll(dir, []Named{{"empty", empty}})
	if err != nil || len(paths) != 0 {
		t.Errorf("WriteAll of an empty result wrote %q (%v), want nothing", paths, err)
	}
}

func TestSpectrumEndsWhereTheSamplesDo(t *testing.T) {
	r := result(t, 1, 1000, time.Millisecond, false)
	pts, err := spectrum(r)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := stats.DecodeHistogram(r.LatencyHistogram)
	first, last := pts[0], pts[len(pts)-1]
	if first.X != 0 || last.X != 3 {
		t.Errorf("x from %g to %g nines, want 0 to 3 (99.9%%) for 1000 samples", first.X, last.X)
	}
	if last.Y != float64(h.Max())/1e6 || first.Y != float64(h.Min())/1e6 {
		t.Errorf("latency from %g to %g ms, want the histogram's min %d ns to max %d ns", first.Y, last.Y, h.Min(), h.Max())
	}
	for i := 1; i < len(pts); i++ {
		if pts[i].Y < pts[i-1].Y {
			t.Fatalf("latency falls from %g to %g ms at %g nines", pts[i-1].Y, pts[i].Y, pts[i].X)
		}
	}
}

func TestPerSecond(t *testing.T) {
	timeline := []stats.Second{
		{At: 1, Requests: 100}, {At: 2, Requests: 0}, {At: 3, Requests: 50}, {At: 3.01, Requests: 1},
	}
	segments := perSecond(timeline, rate)
	if len(segments) != 1 || len(segments[0]) != 4 || segments[0][2].Y != 0 || segments[0][3].Y != 50 {
		t.Errorf("rate %v: want one line 100, 100, 0, 50 (the 10 ms sliver left out)", segments)
	}
	if short := perSecond([]stats.Second{{At: 0.05, Requests: 5}}, rate); len(short) != 1 || short[0][1].Y != 100 {
		t.Errorf("rate of a 50 ms run %v: want it drawn", short)
	}
	segments = perSecond(timeline, latency(func(l stats.SecondLatency) float64 { return l.P99 }))
	if len(segments) != 2 || segments[1][0].X != 2 {
		t.Errorf("latency %v: want a gap for the second without responses", segments)
	}
}

func TestTargetRate(t *testing.T) {
	c := stats.Config{Rates: []float64{200, 400}, DurationS: 3}
	want := xys{{X: 0, Y: 200}, {X: 3, Y: 200}, {X: 3, Y: 400}, {X: 6, Y: 400}}
	if got := targetRate(c, 6.01); !slices.Equal(got, want) {
		t.Errorf("targetRate = %v, want 200 from 0 to 3 s, then 400 to 6 s", got)
	}
	ramp := stats.Config{Rates: []float64{1050, 2000}, Ramps: []stats.Ramp{{From: 100, To: 2000}, {From: 2000, To: 2000}}, DurationS: 10}
	want = xys{{X: 0, Y: 100}, {X: 10, Y: 2000}, {X: 10, Y: 2000}, {X: 20, Y: 2000}}
	if got := targetRate(ramp, 20); !slices.Equal(got, want) {
		t.Errorf("targetRate of a ramp = %v, want a line rising from 100 to 2000 over 10 s, then held", got)
	}
	if got := targetRate(c, 12); got != nil {
		t.Errorf("targetRate over twice the schedule = %v, want none", got)
	}
	if got := targetRate(stats.Config{DurationS: 3}, 3); got != nil {
		t.Errorf("targetRate of a closed loop = %v, want none", got)
	}
}

// TestTimelineNamesBothRateLines: with an open-loop target, the legend of
// the requests/s panel names the target and the achieved rate.
func TestTimelineNamesBothRateLines(t *testing.T) {
	r := result(t, 2, 100, time.Millisecond, false)
	r.Config = stats.Config{Rates: []float64{100}, DurationS: 2}
	path := filepath.Join(t.TempDir(), "timeline.svg")
	if err := Timeline(r, path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"target", "achieved"} {
		if !strings.Contains(string(b), ">"+text+"<") {
			t.Errorf("the timeline's legend lacks %q", text)
		}
	}
}

func TestRoundTicks(t *testing.T) {
	tests := []struct {
		min, max float64
		want     []string
	}{
		{0, 500, []string{"0", "100", "200", "300", "400", "500"}},
		{-1e-12, 12.6, []string{"0", "2", "4", "6", "8", "10", "12"}},
		{0, 10400, []string{"0", "2,000", "4,000", "6,000", "8,000", "10,000"}},
		{0, 0.9, []string{"0", "0.2", "0.4", "0.6", "0.8"}},
		{0, 20, []string{"0", "2.5", "5", "7.5", "10", "12.5", "15", "17.5", "20"}},
	}
	for _, tt := range tests {
		var labels []string
		for _, tick := range (roundTicks{}).Ticks(tt.min, tt.max) {
			if !tick.IsMinor() {
				labels = append(labels, tick.Label)
			}
		}
		if !slices.Equal(labels, tt.want) {
			t.Errorf("Ticks(%g, %g) = %q, want %q", tt.min, tt.max, labels, tt.want)
		}
	}
}

// TestLogTicks: a log axis is labelled at 1, 2 and 5 times the powers of
// ten, at every whole multiple within a decade, at fewer powers of ten
// across many, and as a linear one when even a decade's multiples leave
// fewer than three labels.
func TestLogTicks(t *testing.T) {
	tests := []struct {
		min, max float64
		want     []string
	}{
		{10, 640, []string{"10", "20", "50", "100", "200", "500"}},
		{1.2, 5.75, []string{"2", "3", "4", "5"}},
		{1, 6, []string{"1", "2", "3", "4", "5", "6"}},
		{0.3, 4, []string{"0.5", "1", "2"}},
		{0.01, 0.05, []string{"0.01", "0.02", "0.03", "0.04", "0.05"}},
		{10, 1e5, []string{"10", "100", "1,000", "10,000", "100,000"}},
		{1e-3, 1e9, []string{"0.01", "1", "100", "10,000", "1,000,000", "100,000,000"}},
		{1.2, 1.9, []string{"1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9"}},
	}
	for _, tt := range tests {
		ticks := (logTicks{}).Ticks(tt.min, tt.max)
		var labels []string
		for _, tick := range ticks {
			if !tick.IsMinor() {
				labels = append(labels, tick.Label)
			}
			if tick.Value < tt.min*(1-1e-9) || tick.Value > tt.max*(1+1e-9) {
				t.Errorf("Ticks(%g, %g): a tick at %g", tt.min, tt.max, tick.Value)
			}
		}
		if !slices.Equal(labels, tt.want) {
			t.Errorf("Ticks(%g, %g) = %q, want %q", tt.min, tt.max, labels, tt.want)
		}
	}
}

// TestWholeMultiples: a log axis's range rounds out to whole multiples of
// powers of ten.
func TestWholeMultiples(t *testing.T) {
	tests := []struct{ v, below, above float64 }{
		{1.2, 1, 2}, {5.75, 5, 6}, {0.3, 0.3, 0.3}, {0.042, 0.04, 0.05}, {95, 90, 100}, {1000, 1000, 1000},
	}
	for _, tt := range tests {
		if b, a := wholeBelow(tt.v), wholeAbove(tt.v); b != tt.below || a != tt.above {
			t.Errorf("%g: from %g to %g, want %g to %g", tt.v, b, a, tt.below, tt.above)
		}
	}
}

func TestFileNames(t *testing.T) {
	results := []Named{{Name: "run"}, {Name: "run"}, {Name: "run-2"}, {Name: "a b/c"}, {Name: ".."}, {Name: "é"}}
	want := []string{"run", "run-2", "run-2-2", "a-b-c", "result", "-"}
	if got := fileNames(results); !slices.Equal(got, want) {
		t.Errorf("fileNames = %q, want %q", got, want)
	}
}

// testBars are two series over three groups: one series missing from a
// group, one bar without a range, ranges uneven about their values.
var testBars = []Bar{
	{Group: "64", Series: "pummel", Value: 180, Low: 170, High: 190},
	{Group: "64", Series: "wrk", Value: 150, Low: 150, High: 150},
	{Group: "10,000", Series: "pummel", Value: 110, Low: 100, High: 125},
	{Group: "10,000", Series: "wrk", Value: 90, Low: 85, High: 90},
	{Group: "pipelined", Series: "pummel", Value: 900, Low: 850, High: 950},
}

func TestBars(t *testing.T) {
	bars := testBars
	for _, ext := range []string{".svg", ".png"} {
		path := filepath.Join(t.TempDir(), "bars"+ext)
		if err := Bars(bars, "requests per client CPU-second", "requests", path); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Size() < 1000 {
			t.Errorf("%s: %v, %v", path, fi, err)
		}
	}
	svg := filepath.Join(t.TempDir(), "bars.svg")
	if err := Bars(bars, "t", "y", svg); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(svg)
	for _, want := range []string{"pummel", "wrk", "10,000", "pipelined"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the chart lacks %q", want)
		}
	}
	checkRangesDrawn(t, string(b))
	if err := Bars(nil, "t", "y", svg); err == nil {
		t.Error("a chart of no bars was drawn")
	}
}

// TestBarValues pins what Bars draws of each series: its value in each
// group (0 where it has none), the range below and above it, one range
// bar for each bar with a Low–High range, and the series' offset.
func TestBarValues(t *testing.T) {
	bars := testBars
	groups := []string{"64", "10,000", "pipelined"}
	const width = vg.Length(40)
	tests := []struct {
		series string
		values []float64
		errs   []yErr
		ranges []rangeBar
		offset vg.Length
	}{
		{"pummel", []float64{180, 110, 900}, []yErr{{10, 10}, {10, 15}, {50, 50}},
			[]rangeBar{{0, 170, 190}, {1, 100, 125}, {2, 850, 950}}, -width / 2},
		{"wrk", []float64{150, 90, 0}, []yErr{{0, 0}, {5, 0}, {0, 0}},
			[]rangeBar{{1, 85, 90}}, width / 2},
	}
	for i, tt := range tests {
		values, errs := barValues(bars, groups, tt.series)
		if !slices.Equal(values, tt.values) || !slices.Equal(errs, tt.errs) {
			t.Errorf("%s: values %v, ranges %v; want %v, %v", tt.series, values, errs, tt.values, tt.errs)
		}
		offset := barOffset(i, len(tests), width)
		if offset != tt.offset {
			t.Errorf("%s: offset %v, want %v", tt.series, offset, tt.offset)
		}
		if r := rangesOf(values, errs, offset); !slices.Equal(r.bars, tt.ranges) || r.offset != tt.offset {
			t.Errorf("%s: range bars %v at %v, want %v at %v", tt.series, r.bars, r.offset, tt.ranges, tt.offset)
		}
	}
	for n, want := range map[int][]vg.Length{1: {0}, 3: {-width, 0, width}} {
		for i, w := range want {
			if got := barOffset(i, n, width); got != w {
				t.Errorf("series %d of %d: offset %v, want %v", i, n, got, w)
			}
		}
	}
}

// checkRangesDrawn checks the ranges TestBars' chart draws: three lines
// (the range and its caps) for each of its four bars with a range, the
// range at its bar's centre, so that wrk's in the 10,000 group is a bar
// width (40) right of pummel's.
func checkRangesDrawn(t *testing.T, svg string) {
	t.Helper()
	r, g, b, _ := rangeColor.RGBA()
	line := regexp.MustCompile(`<path d="M([0-9.]+),([0-9.]+)L([0-9.]+),([0-9.]+)" style="fill:none;stroke:` +
		fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8) + `"`)
	lines := line.FindAllStringSubmatch(svg, -1)
	var xs []float64 // of the vertical lines: pummel's three ranges, then wrk's
	for _, l := range lines {
		if l[1] == l[3] {
			x, _ := strconv.ParseFloat(l[1], 64)
			xs = append(xs, x)
		}
	}
	if len(lines) != 12 || len(xs) != 4 {
		t.Fatalf("%d range lines, %d of them vertical; want 12 and 4, for 4 ranges", len(lines), len(xs))
	}
	if d := xs[3] - xs[1]; math.Abs(d-40) > 0.05 {
		t.Errorf("wrk's range in the 10,000 group is %g right of pummel's, want 40, a bar's width", d)
	}
	if a, b := xs[1]-xs[0], xs[2]-xs[1]; a < 40 || math.Abs(a-b) > 0.05 {
		t.Errorf("pummel's ranges are %g and %g apart, want one group apart each", a, b)
	}
}

// TestTenSeriesTenColors: a comparison of up to ten tools gives each its
// own color (gonum's palette alone repeats after seven).
func TestTenSeriesTenColors(t *testing.T) {
	seen := map[color.RGBA]int{}
	for i := range 10 {
		r, g, b, a := lineColor(i).RGBA()
		c := color.RGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: uint8(a >> 8)}
		if j, ok := seen[c]; ok {
			t.Errorf("series %d has the color of series %d", i, j)
		}
		seen[c] = i
	}
}
