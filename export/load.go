package export

import (
	"strconv"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/stats/record"
)

// LoadOptions describes one load whose figures an Exporter pushes.
type LoadOptions struct {
	// Labels go on the load's series beyond the exporter's: a capacity
	// step's, a plan's operation and mode. A load under the same labels
	// as one before it goes on from its figures (the runs of --runs, a
	// step measured on): the counters are the loads' together, as their
	// merged result's.
	Labels []Label
	// Rows names the rows of targets (--targets) in the result's order:
	// each has its requests and errors as series of its own.
	Rows []string
	// OpenLoop adds the open-loop series: the target and achieved rate,
	// the schedule's lag and the late sends.
	OpenLoop bool
	// Servers are the server processes watched during the load.
	Servers []Server
}

// Server is a watched server process.
type Server struct {
	PID int
	// Sample returns the process's latest resident memory and CPU time
	// (user + system, since it started); ok is false before the first.
	Sample func() (rssBytes int64, cpuSeconds float64, ok bool)
}

// Load turns the ticks of one load (engine.Config.OnTick, which Observe
// is) into snapshots for the exporter's sinks.
type Load struct {
	e       *Exporter
	key     string // the load's labels, to find what a load before it left
	metrics []metric
	series  []Series // metrics' series, shared by the load's snapshots
	zero    []Series // its counters and histograms, for the first point at 0
	carried *carry   // what loads before it under the same labels left

	latency counts // every latency so far, the carried ones included
	lag     counts // the schedule's lag, made anew at each push (open loop)
	last    time.Time
	lastMs  int64
	ended   int64 // requests that ended (responses and socket errors) at the last push
}

// carry is what a load leaves to the next under the same labels: its
// counters, its histograms as points (sparse: a capacity search or a
// plan leaves one per step or operation, each a few KB), and the time of
// its last point.
type carry struct {
	totals       engine.Totals
	rows         []engine.Totals
	latency, lag Histogram
	lastMs       int64
}

// metric is one series and how to read its point.
type metric struct {
	Series
	point func(v *view) Point
	zero  bool // in the load's first point, at 0
}

// view is what a push reads its points from.
type view struct {
	tick     *engine.Tick
	totals   engine.Totals
	rows     []engine.Totals
	latency  Histogram
	lag      Histogram
	achieved float64
	// sinceLast is the time since the load's previous push.
	sinceLast time.Duration
}

// minRateWindow is the shortest time the achieved rate is pushed over.
const minRateWindow = 100 * time.Millisecond

// Load starts the figures of one load.
func (e *Exporter) Load(o LoadOptions) *Load {
	l := &Load{e: e}
	labels := withLabels(e.labels, o.Labels...)
	l.key = labelKey(labels)
	e.mu.Lock()
	l.carried = e.ended[l.key]
	delete(e.ended, l.key)
	e.mu.Unlock()
	l.metrics = l.build(labels, o)
	for _, m := range l.metrics {
		l.series = append(l.series, m.Series)
		if m.zero {
			l.zero = append(l.zero, m.Series)
		}
	}
	l.latency = e.newCounts()
	if o.OpenLoop {
		l.lag = e.newCounts()
	}
	if c := l.carried; c != nil {
		l.latency.addPoint(c.latency)
		l.lastMs = c.lastMs
	}
	return l
}

func (e *Exporter) newCounts() counts {
	if e.classic {
		return newClassicCounts()
	}
	return newNativeCounts()
}

// Observe takes one tick of the load: it is the load's
// engine.Config.OnTick, and runs on the engine's sampler, so it never
// waits: the snapshot it makes is queued for each sink.
func (l *Load) Observe(t engine.Tick) {
	if t.Latency != nil {
		l.latency.addHDR(t.Latency)
	}
	if l.last.IsZero() {
		l.last = t.From
		if l.carried == nil { // a new series starts at 0, so that rate() counts the first second
			l.push(&Snapshot{At: t.From, Series: l.zero, Points: l.zeroPoints()})
		}
	}
	if !t.Final && t.At.Sub(l.last) < l.e.interval-time.Millisecond {
		return
	}
	v := l.view(&t)
	snap := &Snapshot{At: t.At, Final: t.Final, Series: l.series, Points: make([]Point, len(l.metrics))}
	for i, m := range l.metrics {
		snap.Points[i] = m.point(v)
	}
	l.push(snap)
	l.last = t.At
	if t.Final {
		l.leave(v)
	}
}

// view gathers a push's figures: the tick's, on top of what the loads
// before it left.
func (l *Load) view(t *engine.Tick) *view {
	v := &view{tick: t, totals: t.Totals, rows: t.Rows, latency: l.latency.point()}
	if c := l.carried; c != nil {
		v.totals = t.Totals.Plus(c.totals)
		v.rows = make([]engine.Totals, len(t.Rows))
		for i := range t.Rows {
			v.rows[i] = t.Rows[i]
			if i < len(c.rows) {
				v.rows[i] = t.Rows[i].Plus(c.rows[i])
			}
		}
	}
	if l.lag != nil {
		l.lag.reset()
		if l.carried != nil {
			l.lag.addPoint(l.carried.lag)
		}
		if t.Lag != nil {
			l.lag.addHDR(t.Lag)
		}
		v.lag = l.lag.point()
	}
	ended := t.Totals.Requests() + t.Totals.Errors.Socket()
	if v.sinceLast = t.At.Sub(l.last); v.sinceLast > 0 {
		v.achieved = float64(ended-l.ended) / v.sinceLast.Seconds()
	}
	l.ended = ended
	return v
}

// push stamps snap with a time after the load's last (Prometheus refuses
// two points of a series at one millisecond) and hands it to the sinks.
func (l *Load) push(snap *Snapshot) {
	ms := max(snap.At.UnixMilli(), l.lastMs+1)
	snap.At, l.lastMs = time.UnixMilli(ms), ms
	l.e.offer(snap)
}

// leave hands what the load counted to the next load under its labels.
func (l *Load) leave(v *view) {
	c := &carry{totals: v.totals, rows: v.rows, latency: v.latency, lag: v.lag, lastMs: l.lastMs}
	l.e.mu.Lock()
	l.e.ended[l.key] = c
	l.e.mu.Unlock()
}

// zeroPoints are the first point's: every counter and histogram at 0.
func (l *Load) zeroPoints() []Point {
	points := make([]Point, len(l.zero))
	for i, s := range l.zero {
		if s.Kind == HistogramSeries {
			h := Histogram{}
			if l.e.classic {
				h.Cumulative = make([]uint64, len(ClassicBounds))
			}
			points[i].Hist = &h
		}
	}
	return points
}

// build lists the load's series, each with how to read its point.
func (l *Load) build(labels []Label, o LoadOptions) []metric {
	var ms []metric
	add := func(name string, kind Kind, zero bool, point func(v *view) Point, more ...Label) {
		ms = append(ms, metric{Series: Series{Name: name, Labels: withLabels(labels, more...), Kind: kind}, point: point, zero: zero})
	}
	counter := func(name string, read func(v *view) int64, more ...Label) {
		add(name, Counter, true, func(v *view) Point { return Point{Value: float64(read(v))} }, more...)
	}
	for i, class := range statusClasses {
		counter(MetricRequests, func(v *view) int64 { return v.totals.Responses[i] }, Label{"status_class", class})
	}
	for c := range record.NumErrorClasses {
		counter(MetricErrors, func(v *view) int64 { return v.totals.Errors.ByClass(c) }, Label{"class", c.String()})
	}
	for r, row := range o.Rows {
		at := Label{"target", row}
		rowOf := func(v *view) engine.Totals {
			if r < len(v.rows) {
				return v.rows[r]
			}
			return engine.Totals{}
		}
		for i, class := range statusClasses {
			counter(MetricTargetRequests, func(v *view) int64 { return rowOf(v).Responses[i] }, at, Label{"status_class", class})
		}
		for c := range record.NumErrorClasses {
			counter(MetricTargetErrors, func(v *view) int64 { return rowOf(v).Errors.ByClass(c) }, at, Label{"class", c.String()})
		}
	}
	counter(MetricSentBytes, func(v *view) int64 { return v.totals.BytesWritten })
	counter(MetricReceivedBytes, func(v *view) int64 { return v.totals.BytesRead })
	counter(MetricReconnects, func(v *view) int64 { return v.totals.Reconnects })
	add(MetricConnections, Gauge, false, func(v *view) Point { return Point{Value: float64(v.tick.Connections)} })
	add(MetricLatency, HistogramSeries, true, func(v *view) Point { return Point{Hist: &v.latency} })
	if o.OpenLoop {
		add(MetricTargetRate, Gauge, false, func(v *view) Point { return Point{Value: v.tick.TargetRate} })
		add(MetricAchievedRate, Gauge, false, func(v *view) Point {
			// The run's end may come a few milliseconds after its last
			// second: a rate over so little time says nothing.
			return Point{Value: v.achieved, Absent: v.sinceLast < minRateWindow}
		})
		add(MetricLag, HistogramSeries, true, func(v *view) Point { return Point{Hist: &v.lag} })
		counter(MetricLateSends, func(v *view) int64 { return v.totals.LateSends })
	}
	for _, s := range o.Servers {
		pid := Label{"pid", strconv.Itoa(s.PID)}
		add(MetricServerRSS, Gauge, false, func(*view) Point {
			rss, _, ok := s.Sample()
			return Point{Value: float64(rss), Absent: !ok}
		}, pid)
		add(MetricServerCPU, Counter, false, func(*view) Point {
			_, cpu, ok := s.Sample()
			return Point{Value: cpu, Absent: !ok}
		}, pid)
	}
	return ms
}
