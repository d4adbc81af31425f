package stats

import (
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/pummel-dev/pummel/stats/record"
)

func TestTimelinesMergeByWallClockSecond(t *testing.T) {
	second := func(at float64, n int) Second {
		h := record.NewHistogram()
		h.RecordValues(int64(time.Millisecond), int64(n))
		s, err := NewSecond(at, h, Errors{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	at := func(offset time.Duration, seconds ...Second) Result {
		r := Result{Start: time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC).Add(offset).Format(time.RFC3339Nano)}
		r.Timeline = seconds
		return r
	}
	tests := []struct {
		name  string
		later time.Duration
		want  []int64 // requests per merged second
		ats   []float64
	}{
		{"300ms apart: first seconds together", 300 * time.Millisecond, []int64{11, 22}, []float64{1, 2}},
		{"1.3s apart: the later one's first second joins the earlier one's second", 1300 * time.Millisecond, []int64{1, 12, 20}, []float64{1, 2, 2.8}},
		{"3s apart: a second no one measured", 3 * time.Second, []int64{1, 2, 0, 10, 20}, []float64{1, 2, 3, 4, 4.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := []Result{at(tt.later, second(1, 10), second(1.5, 20)), at(0, second(1, 1), second(2, 2))}
			got, err := wallClockTimeline(rs)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%d seconds, want %d: %+v", len(got), len(tt.want), got)
			}
			for i, s := range got {
				if s.Requests != tt.want[i] || s.At != tt.ats[i] {
					t.Errorf("second %d: %d requests at %gs, want %d at %gs", i+1, s.Requests, s.At, tt.want[i], tt.ats[i])
				}
			}
		})
	}
}

// TestTimelinesMergeOverALongGap: the seconds between results started an
// hour apart are empty, and cost no histogram each (one of pummel's range
// is about 250 KiB).
func TestTimelinesMergeOverALongGap(t *testing.T) {
	second := func(n int) Second {
		h := record.NewHistogram()
		h.RecordValues(int64(time.Millisecond), int64(n))
		s, err := NewSecond(1, h, Errors{Read: 1}, 100)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	at := func(offset time.Duration, s Second) Result {
		return Result{Start: time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC).Add(offset).Format(time.RFC3339Nano), Timeline: []Second{s}}
	}
	const gap = 3600
	first, last := second(1), second(10)
	rs := []Result{at(0, first), at(gap*time.Second, last)}
	got, err := wallClockTimeline(rs)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != gap+1 {
		t.Fatalf("%d seconds, want %d", len(got), gap+1)
	}
	if got[0] != first {
		t.Errorf("first second %+v, want %+v", got[0], first)
	}
	if last.At = gap + 1; got[gap] != last {
		t.Errorf("last second %+v, want %+v", got[gap], last)
	}
	// What an empty second was, a summary of an empty histogram.
	empty, err := NewSecond(0, record.NewHistogram(), Errors{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k < gap; k++ {
		if empty.At = float64(k + 1); got[k] != empty {
			t.Fatalf("second %d: %+v, want an empty second, %+v", k+1, got[k], empty)
		}
	}
	if allocs := testing.AllocsPerRun(1, func() { _, _ = wallClockTimeline(rs) }); allocs >= gap {
		t.Errorf("%.0f allocations for %d empty seconds, want fewer than one each", allocs, gap)
	}
}

// TestTimelinesMergeRefusesResultsFarApart: results that claim to have
// run side by side but started two days apart (or a year, as a hostile
// file may say) are refused, rather than given a timeline of every
// second between them.
func TestTimelinesMergeRefusesResultsFarApart(t *testing.T) {
	s, err := NewSecond(1, record.NewHistogram(), Errors{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	at := func(offset time.Duration) Result {
		return Result{Start: time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC).Add(offset).Format(time.RFC3339Nano), Timeline: []Second{s}}
	}
	for _, apart := range []time.Duration{48 * time.Hour, 365 * 24 * time.Hour} {
		got, err := wallClockTimeline([]Result{at(0), at(apart)})
		if err == nil || !strings.Contains(err.Error(), "side by side overlap") {
			t.Errorf("results %v apart: %d seconds, err %v; want them refused", apart, len(got), err)
		}
	}
}

// TestTimelinesMergeRefusesWhatMergeEncodedDoes: merging seconds fails,
// as merging the results' histograms does, on a second with requests but
// no histogram and on latencies outside the merged histogram's range,
// rather than drop them.
func TestTimelinesMergeRefusesWhatMergeEncodedDoes(t *testing.T) {
	second := func(h *hdrhistogram.Histogram) Second {
		s, err := NewSecond(1, h, Errors{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ms := record.NewHistogram()
	ms.RecordValues(int64(time.Millisecond), 10)
	wide := hdrhistogram.New(record.HistogramMin, 2*record.HistogramMax, record.HistogramDigits)
	wide.RecordValues(int64(90*time.Minute), 3) // beyond pummel's range
	wide.RecordValues(int64(time.Millisecond), 7)
	noHistogram := second(ms)
	noHistogram.Histogram = ""
	tests := []struct {
		name  string
		later Second
		want  string // "" for none
	}{
		{"histograms", second(ms), ""},
		{"requests but no histogram", noHistogram, "timeline at 1s has 10 requests but no latency histogram"},
		{"latencies beyond the range", second(wide), "timeline at 1s: 3 latencies fell outside the histogram's range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := func(offset time.Duration, s Second) Result {
				return Result{Start: time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC).Add(offset).Format(time.RFC3339Nano), Timeline: []Second{s}}
			}
			got, err := wallClockTimeline([]Result{at(0, second(ms)), at(300*time.Millisecond, tt.later)})
			switch {
			case tt.want == "" && err != nil:
				t.Fatal(err)
			case tt.want == "" && (len(got) != 1 || got[0].Requests != 20):
				t.Errorf("merged %+v, want one second of 20 requests", got)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Errorf("merged %+v, err %v; want the error %q", got, err, tt.want)
			}
		})
	}
}
