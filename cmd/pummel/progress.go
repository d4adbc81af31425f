package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/stats/render"
)

// --progress values.
const (
	progressAuto   = "auto"   // a live line on a terminal, nothing otherwise
	progressAlways = "always" // a live line on a terminal, else a plain line every plainEvery
	progressNever  = "never"  // nothing (-q)
)

// plainEvery is how often --progress always writes a line when stderr is
// not a terminal: often enough to show a CI job is alive, rarely enough
// to keep its log short.
const plainEvery = 10 * time.Second

// progressMode reads --progress and -q, an alias of --progress never.
func (o *options) progressMode() (string, error) {
	switch {
	case o.progress != progressAuto && o.progress != progressAlways && o.progress != progressNever:
		return "", usageError{fmt.Sprintf("--progress: %q is not one of auto, always, never", o.progress)}
	case o.quiet && o.progress == progressAlways:
		return "", usageError{"-q/--quiet: means --progress never; drop one of them"}
	case o.quiet:
		return progressNever, nil
	}
	return o.progress, nil
}

// progressLine shows a run's progress on stderr: on a terminal one line
// redrawn in place; elsewhere, with --progress always, a plain line every
// `every`.
type progressLine struct {
	mu    sync.Mutex // guards w, drawn, last and prefix
	w     io.Writer
	live  bool          // redraw one line in place
	every time.Duration // without live: the time between plain lines
	now   func() time.Time
	drawn bool      // a live line is on the screen
	last  time.Time // when the last plain line was due
	// prefix starts every line: a capacity search's step.
	prefix string
}

// newProgress returns the progress display for stderr in mode, or nil
// when there must be none.
func newProgress(stderr io.Writer, mode string) *progressLine {
	f, ok := stderr.(*os.File)
	terminal := ok && term.IsTerminal(int(f.Fd()))
	switch {
	case mode == progressNever, mode == progressAuto && !terminal:
		return nil
	case terminal:
		return &progressLine{w: stderr, live: true}
	}
	return &progressLine{w: stderr, every: plainEvery, now: time.Now}
}

// show draws p; it is the engine's Progress callback.
func (l *progressLine) show(p engine.Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.live {
		fmt.Fprintf(l.w, "\r%s%s\x1b[K", l.prefix, progressText(p))
		l.drawn = true
		return
	}
	now := l.now()
	switch {
	case l.last.IsZero(): // the first call starts the clock
		l.last = now
	case now.Sub(l.last) >= l.every:
		l.last = now
		fmt.Fprintf(l.w, "%s%s\n", l.prefix, strings.TrimSpace(progressText(p)))
	}
}

// setPrefix starts every line from now on with prefix (a capacity
// search's step).
func (l *progressLine) setPrefix(prefix string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.prefix = prefix
}

// clear removes a live line before the result is printed.
func (l *progressLine) clear() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.drawn {
		fmt.Fprint(l.w, "\r\x1b[K")
	}
}

// progressText is the line: where the run is, its last second and errors.
// Before a whole second was measured there is no rate or latency yet:
// "-", never a 0 that was not measured. A warm-up shows its own requests,
// never in -n's count.
func progressText(p engine.Progress) string {
	var b strings.Builder
	switch {
	case p.Elapsed < 0:
		fmt.Fprintf(&b, "warming up %4.1fs", -p.Elapsed.Seconds())
	case p.Warming: // by count: no time to show
		b.WriteString("warming up")
	case p.Planned > 0:
		fmt.Fprintf(&b, "%6.1fs / %s", p.Elapsed.Seconds(), render.FormatDuration(p.Planned))
	default:
		fmt.Fprintf(&b, "%6.1fs", p.Elapsed.Seconds())
	}
	switch {
	case p.Warming:
		fmt.Fprintf(&b, "  %d warm-up requests", p.Warmup)
	case p.Limit > 0:
		fmt.Fprintf(&b, "  %d / %d requests", p.Requests, p.Limit)
	default:
		fmt.Fprintf(&b, "  %d requests", p.Requests)
	}
	rate, p50, p99 := "-", "-", "-"
	if p.Measured {
		rate = fmt.Sprintf("%.0f", p.Rate)
		if p.TargetRate > 0 {
			rate += fmt.Sprintf(" of %g", p.TargetRate)
		}
	}
	if p.Measured && p.Rate > 0 {
		p50, p99 = render.FormatDuration(p.P50.Round(time.Microsecond)), render.FormatDuration(p.P99.Round(time.Microsecond))
	}
	fmt.Fprintf(&b, "  %s req/s  p50 %s  p99 %s  errors %d", rate, p50, p99, p.Errors)
	return b.String()
}
