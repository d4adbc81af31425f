package render

import (
	"fmt"
	"io"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/pummel-dev/pummel/stats"
)

// WriteHdrLog writes the result's timeline as an HdrHistogram interval log
// (the format HdrHistogram's plotter and HistogramLogAnalyzer read): one
// interval histogram per second, values in nanoseconds (the log's max
// column in milliseconds), times from the start of the measurement.
func WriteHdrLog(w io.Writer, r stats.Result) error {
	start, err := time.Parse(time.RFC3339Nano, r.Start)
	if err != nil {
		return fmt.Errorf("hdr log: the result has no start time: %w", err)
	}
	base := start.UnixMilli()
	lw := hdrhistogram.NewHistogramLogWriter(w)
	lw.SetBaseTime(base)
	steps := []func() error{
		lw.OutputLogFormatVersion,
		func() error { return lw.OutputComment("pummel latency log: values in nanoseconds") },
		func() error { return lw.OutputStartTime(base) },
		func() error { return lw.OutputBaseTime(base) },
		lw.OutputLegend,
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	prev := 0.0
	for _, s := range r.Timeline {
		h, err := stats.DecodeHistogram(s.Histogram)
		if err != nil {
			return fmt.Errorf("hdr log: second %g: %w", s.At, err)
		}
		h.SetStartTimeMs(base + int64(prev*1000))
		h.SetEndTimeMs(base + int64(s.At*1000))
		if err := lw.OutputIntervalHistogram(h); err != nil {
			return err
		}
		prev = s.At
	}
	return nil
}
