package export

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWriteRequestBytes: one series, one sample, byte for byte as the
// protobuf wire format has it (worked out by hand from prompb's
// remote.proto and types.proto).
func TestWriteRequestBytes(t *testing.T) {
	snap := &Snapshot{At: time.UnixMilli(1000), Series: []Series{{Name: "x"}}, Points: []Point{{Value: 1}}}
	got := appendWriteRequest(nil, []*Snapshot{snap}, false)
	label := append([]byte{0x0a, 0x08}, "__name__"...)
	label = append(label, 0x12, 0x01, 'x')                                 // Label{name: "__name__", value: "x"}: 13 bytes
	sample := []byte{0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0x10, 0xe8, 0x07} // Sample{value: 1.0, timestamp: 1000}: 12 bytes
	series := append([]byte{0x0a, 0x0d}, label...)
	series = append(series, 0x12, 0x0c)
	series = append(series, sample...) // TimeSeries: 29 bytes
	want := append([]byte{0x0a, 0x1d}, series...)
	if !bytes.Equal(got, want) {
		t.Errorf("WriteRequest\n got % x\nwant % x", got, want)
	}
}

// TestAppendMessageLongBody: a body of 300 bytes takes a two-byte
// length prefix, and the body moves past it whole.
func TestAppendMessageLongBody(t *testing.T) {
	body := strings.Repeat("ab", 150)
	b := appendMessage([]byte{0xff}, 3, func(b []byte) []byte { return append(b, body...) })
	fs, err := fields(b[1:])
	if err != nil || len(fs) != 1 || fs[0].num != 3 || string(fs[0].bytes) != body || b[0] != 0xff {
		t.Errorf("fields %+v, %v", fs, err)
	}
}

func TestNativeSpans(t *testing.T) {
	for _, tc := range []struct {
		name    string
		buckets []Bucket
		spans   []span
		counts  []uint64
	}{
		{"none", nil, nil, nil},
		{"one", []Bucket{{-2551, 7}}, []span{{-2551, 1}}, []uint64{7}},
		{"consecutive", []Bucket{{3, 1}, {4, 2}, {5, 3}}, []span{{3, 3}}, []uint64{1, 2, 3}},
		{"a gap of two stays in the span", []Bucket{{3, 1}, {6, 2}}, []span{{3, 4}}, []uint64{1, 0, 0, 2}},
		{"a gap of three starts a span", []Bucket{{3, 1}, {7, 2}, {8, 1}}, []span{{3, 1}, {3, 2}}, []uint64{1, 2, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spans, counts := nativeSpans(tc.buckets)
			if !slices.Equal(spans, tc.spans) || !slices.Equal(counts, tc.counts) {
				t.Errorf("spans %v counts %v, want %v %v", spans, counts, tc.spans, tc.counts)
			}
		})
	}
}

// TestNativeHistogramRoundTrip: a native histogram reads back with its
// count, sum, schema, zero bucket, time and buckets.
func TestNativeHistogramRoundTrip(t *testing.T) {
	h := &Histogram{Count: 10, Sum: 0.5, Buckets: []Bucket{{-2600, 1}, {-2599, 4}, {-2590, 3}, {-2589, 2}}}
	snap := &Snapshot{At: time.UnixMilli(1_700_000_000_123), Series: []Series{{Name: MetricLatency, Labels: []Label{{"run", "r1"}}, Kind: HistogramSeries}},
		Points: []Point{{Hist: h}}}
	series, err := decodeWriteRequest(appendWriteRequest(nil, []*Snapshot{snap}, false))
	if err != nil || len(series) != 1 || len(series[0].hists) != 1 {
		t.Fatalf("%+v, %v", series, err)
	}
	got := series[0].hists[0]
	if got.count != 10 || got.sum != 0.5 || got.schema != Schema || got.zeroThresh != ZeroThreshold || got.zeroCount != 0 || got.ms != 1_700_000_000_123 {
		t.Errorf("histogram %+v", got)
	}
	if b := got.buckets(); !slices.Equal(b, h.Buckets) {
		t.Errorf("buckets %v, want %v", b, h.Buckets)
	}
	if want := []Label{{"__name__", MetricLatency}, {"run", "r1"}}; !slices.Equal(series[0].labels, want) {
		t.Errorf("labels %v, want %v", series[0].labels, want)
	}
}

// TestWriteRequestGroupsALoadsSnapshots: the snapshots of one load make
// one series each, with a point from each; another load's follow.
func TestWriteRequestGroupsALoadsSnapshots(t *testing.T) {
	a := []Series{{Name: "a_total", Kind: Counter}}
	b := []Series{{Name: "b_total", Kind: Counter}}
	snaps := []*Snapshot{
		{At: time.UnixMilli(1000), Series: a, Points: []Point{{Value: 1}}},
		{At: time.UnixMilli(2000), Series: a, Points: []Point{{Value: 2}}},
		{At: time.UnixMilli(3000), Series: b, Points: []Point{{Value: 3}}},
		{At: time.UnixMilli(4000), Series: b, Points: []Point{{Absent: true}}},
	}
	series, err := decodeWriteRequest(appendWriteRequest(nil, snaps, false))
	if err != nil || len(series) != 2 {
		t.Fatalf("%+v, %v", series, err)
	}
	if s := series[0].samples; len(s) != 2 || s[0] != (decodedSample{1, 1000}) || s[1] != (decodedSample{2, 2000}) {
		t.Errorf("a: %+v", s)
	}
	if s := series[1].samples; len(s) != 1 || s[0] != (decodedSample{3, 3000}) {
		t.Errorf("b (its absent point left out): %+v", s)
	}
}

// TestClassicHistogramSeries: a classic histogram is name_bucket with le
// (sorted among the labels), name_sum and name_count.
func TestClassicHistogramSeries(t *testing.T) {
	h := &Histogram{Count: 3, Sum: 0.2, Cumulative: make([]uint64, len(ClassicBounds))}
	for i := range h.Cumulative {
		h.Cumulative[i] = 2
	}
	s := []Series{{Name: MetricLatency, Labels: []Label{{"a", "1"}, {"run", "x"}}, Kind: HistogramSeries}}
	series, err := decodeWriteRequest(appendWriteRequest(nil, []*Snapshot{{At: time.UnixMilli(5), Series: s, Points: []Point{{Hist: h}}}}, true))
	if err != nil || len(series) != len(ClassicBounds)+3 {
		t.Fatalf("%d series, %v", len(series), err)
	}
	first, inf := series[0], series[len(ClassicBounds)]
	if want := []Label{{"__name__", MetricLatency + "_bucket"}, {"a", "1"}, {"le", "5e-05"}, {"run", "x"}}; !slices.Equal(first.labels, want) {
		t.Errorf("first bucket's labels %v, want %v", first.labels, want)
	}
	if inf.labels[2] != (Label{"le", "+Inf"}) || inf.samples[0].value != 3 || first.samples[0].value != 2 {
		t.Errorf("+Inf bucket %+v, first %+v", inf, first)
	}
	sum, count := series[len(series)-2], series[len(series)-1]
	if sum.labels[0].Value != MetricLatency+"_sum" || sum.samples[0].value != 0.2 || count.labels[0].Value != MetricLatency+"_count" || count.samples[0].value != 3 {
		t.Errorf("sum %+v count %+v", sum, count)
	}
}
