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
)

// progressLine draws one line of live progress on a terminal, redrawn in
// place; it draws nothing when stderr is not a terminal or with -q.
type progressLine struct {
	mu    sync.Mutex // guards w and drawn
	w     io.Writer
	drawn bool
}

// newProgress returns a progress line for stderr, or nil when there must be
// none: -q, or stderr is a pipe or a file.
func newProgress(stderr io.Writer, quiet bool) *progressLine {
	f, ok := stderr.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return &progressLine{w: stderr}
}

// show draws p; it is the engine's Progress callback.
func (l *progressLine) show(p engine.Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "\r%s\x1b[K", progressText(p))
	l.drawn = true
}

// clear removes the line before the result is printed.
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
func progressText(p engine.Progress) string {
	var b strings.Builder
	switch {
	case p.Elapsed < 0:
		fmt.Fprintf(&b, "warming up %4.1fs", -p.Elapsed.Seconds())
	case p.Planned > 0:
		fmt.Fprintf(&b, "%6.1fs / %v", p.Elapsed.Seconds(), p.Planned)
	default:
		fmt.Fprintf(&b, "%6.1fs", p.Elapsed.Seconds())
	}
	if p.Limit > 0 {
		fmt.Fprintf(&b, "  %d / %d requests", p.Requests, p.Limit)
	} else {
		fmt.Fprintf(&b, "  %d requests", p.Requests)
	}
	fmt.Fprintf(&b, "  %.0f req/s", p.Rate)
	if p.TargetRate > 0 {
		fmt.Fprintf(&b, " of %g", p.TargetRate)
	}
	fmt.Fprintf(&b, "  p50 %v  p99 %v  errors %d", p.P50.Round(time.Microsecond), p.P99.Round(time.Microsecond), p.Errors)
	return b.String()
}
