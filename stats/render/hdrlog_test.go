package render

import (
	"bytes"
	"io"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
)

func TestHdrLogReadsBack(t *testing.T) {
	r := stats.Result{Start: "2026-11-30T04:00:00Z"}
	for i, n := range []int{100, 250, 40} {
		h := record.NewHistogram()
		for j := range n {
			h.RecordValue(int64((j + 1) * int(time.Microsecond)))
		}
		s, err := stats.NewSecond(float64(i+1), h, stats.Errors{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		r.Timeline = append(r.Timeline, s)
	}
	var buf bytes.Buffer
	if err := WriteHdrLog(&buf, r); err != nil {
		t.Fatal(err)
	}
	reader := hdrhistogram.NewHistogramLogReader(&buf)
	for i, want := range []int64{100, 250, 40} {
		h, err := reader.NextIntervalHistogram()
		if err != nil || h == nil {
			t.Fatalf("interval %d: %v", i, err)
		}
		if h.TotalCount() != want || h.Max() < 39*int64(time.Microsecond) {
			t.Errorf("interval %d holds %d values (max %d), want %d", i, h.TotalCount(), h.Max(), want)
		}
	}
	if h, err := reader.NextIntervalHistogram(); h != nil || (err != nil && err != io.EOF) {
		t.Errorf("a fourth interval: %v, %v", h, err)
	}
	if err := WriteHdrLog(io.Discard, stats.Result{}); err == nil {
		t.Error("a result without a start time was accepted")
	}
}
