// Package export pushes a running load's figures where SREs already look
// (--export): once a second (Options.Interval), and once more after the
// run's last second, every series of the load at that time, to each sink.
//
// The figures come from the engine's timeline (engine.Config.OnTick, one
// Tick a second, read from what the sampler takes anyway): the request
// path neither waits for an exporter nor knows of one. A Load turns the
// ticks of one load into Snapshots, cumulative as Prometheus counters are
// (its last snapshot's figures are the result's, exactly), and hands each
// sink its own copy through a bounded queue; each sink pushes from a
// goroutine of its own, retrying what may pass with back-off, and counts
// what it could not deliver (Report).
//
// A sink is one file: a type with Push (prometheus.go, Prometheus'
// remote write) and its line in sinkKinds.
package export

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pummel-dev/pummel/stats"
)

// Sink delivers snapshots to one place.
type Sink interface {
	// Name is the sink's kind, as --export names it ("prometheus").
	Name() string
	// Push delivers snaps, oldest first, within ctx. An error that
	// retrying cannot mend (the place refused them) is wrapped by
	// Permanent; any other is retried with back-off.
	Push(ctx context.Context, snaps []*Snapshot) error
}

// SinkOptions is what every sink is made with.
type SinkOptions struct {
	// UserAgent goes with each push ("pummel/VERSION").
	UserAgent string
	// Classic asks for classic histograms (buckets at fixed bounds)
	// instead of native ones, for a server without native histograms.
	Classic bool
}

// sinkKinds makes each kind of sink from the text after "KIND=".
var sinkKinds = map[string]func(target string, o SinkOptions) (Sink, error){
	"prometheus": newPrometheus,
}

// Kinds lists the kinds of sinks, sorted.
func Kinds() []string {
	var kinds []string
	for k := range sinkKinds {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}

// ParseSink reads an --export, KIND=TARGET (prometheus=URL), and makes
// its sink. Its errors say what is wrong without repeating the target,
// which may hold credentials.
func ParseSink(s string, o SinkOptions) (Sink, error) {
	kind, target, ok := strings.Cut(s, "=")
	newSink, known := sinkKinds[kind]
	switch {
	case !ok || !known:
		what := "the argument" // a URL, credentials and all (user:pw@host/?x=1 cuts at its "="): not repeated
		if ok && labelNamePattern.MatchString(kind) {
			what = strconv.Quote(kind) // a word: a kind misspelt
		}
		return nil, fmt.Errorf("%s is not KIND=URL: the kinds are %s (example: prometheus=http://127.0.0.1:9090/api/v1/write)", what, strings.Join(Kinds(), ", "))
	case target == "":
		return nil, fmt.Errorf("%s= needs a URL", kind)
	}
	sink, err := newSink(target, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	return sink, nil
}

// permanentError is a push retrying will not mend.
type permanentError struct{ error }

func (e permanentError) Unwrap() error { return e.error }

// Permanent marks err as one that retrying will not mend.
func Permanent(err error) error { return permanentError{err} }

func isPermanent(err error) bool { return errors.As(err, new(permanentError)) }

// DefaultInterval is how often a load's figures are pushed: each second
// of the timeline.
const DefaultInterval = time.Second

// Options configures an Exporter.
type Options struct {
	// Sinks receive every snapshot, each through its own queue.
	Sinks []Sink
	// Interval is how often a load's figures are pushed: a whole number
	// of seconds (the timeline's), 0 meaning DefaultInterval. The end of
	// a load is always pushed.
	Interval time.Duration
	// Labels go on every series: run, shard, --export-label.
	Labels []Label
	// Classic makes histograms classic instead of native.
	Classic bool
}

// Exporter pushes the figures of one command's loads to its sinks.
type Exporter struct {
	interval time.Duration
	labels   []Label
	classic  bool
	queues   []*queue

	mu    sync.Mutex        // guards ended
	ended map[string]*carry // what loads that ended left to the next under the same labels
}

// New starts exporting to o.Sinks; Close ends it.
func New(o Options) *Exporter {
	e := &Exporter{interval: o.Interval, labels: withLabels(nil, o.Labels...), classic: o.Classic, ended: map[string]*carry{}}
	if e.interval <= 0 {
		e.interval = DefaultInterval
	}
	for _, s := range o.Sinks {
		q := newQueue(s)
		e.queues = append(e.queues, q)
		go q.run()
	}
	return e
}

// offer hands every sink the snapshot, without waiting.
func (e *Exporter) offer(s *Snapshot) {
	for _, q := range e.queues {
		q.offer(s)
	}
}

// Close pushes what is left, within timeout, and stops the sinks: what
// is still undelivered then is dropped and counted. It says what each
// sink delivered, counted in snapshots (one a push interval), its URL
// left for the caller, which knows how to show it. It may be called once.
func (e *Exporter) Close(timeout time.Duration) []stats.ExportSink {
	deadline := time.Now().Add(timeout)
	var wg sync.WaitGroup
	for _, q := range e.queues {
		wg.Go(func() { q.close(deadline) })
	}
	wg.Wait()
	var r []stats.ExportSink
	for _, q := range e.queues {
		r = append(r, q.report())
	}
	return r
}

// inf is +Inf, the last classic bucket's bound.
var inf = math.Inf(1)
