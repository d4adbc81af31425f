package export

import (
	"encoding/binary"
	"math"
	"strconv"
)

// The remote-write v1 protobuf (prompb's remote.proto and types.proto,
// the same wire format in Prometheus 2.x and 3.x), written by hand with
// encoding/binary: the handful of messages pummel sends do not earn a
// protobuf library (see the commit that added this file). Field numbers:
const (
	writeTimeseries = 1 // WriteRequest.timeseries

	seriesLabels     = 1 // TimeSeries.labels
	seriesSamples    = 2 // TimeSeries.samples
	seriesHistograms = 4 // TimeSeries.histograms

	labelName  = 1
	labelValue = 2

	sampleValue     = 1 // double
	sampleTimestamp = 2 // int64, ms

	histCountInt      = 1  // uint64
	histSum           = 3  // double
	histSchema        = 4  // sint32
	histZeroThreshold = 5  // double
	histZeroCountInt  = 6  // uint64
	histPositiveSpans = 11 // repeated BucketSpan
	histPositiveDelta = 12 // packed sint64
	histTimestamp     = 15 // int64, ms

	spanOffset = 1 // sint32
	spanLength = 2 // uint32
)

// Wire types.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
)

func appendTag(b []byte, field, wire int) []byte {
	return binary.AppendUvarint(b, uint64(field)<<3|uint64(wire))
}

func appendVarint(b []byte, field int, v uint64) []byte {
	return binary.AppendUvarint(appendTag(b, field, wireVarint), v)
}

func appendDouble(b []byte, field int, v float64) []byte {
	return binary.LittleEndian.AppendUint64(appendTag(b, field, wireFixed64), math.Float64bits(v))
}

func appendString(b []byte, field int, s string) []byte {
	b = binary.AppendUvarint(appendTag(b, field, wireBytes), uint64(len(s)))
	return append(b, s...)
}

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// appendMessage appends field as an embedded message that body appends:
// it is written in place, then moved past its length prefix.
func appendMessage(b []byte, field int, body func([]byte) []byte) []byte {
	b = appendTag(b, field, wireBytes)
	mark := len(b)
	b = body(b)
	n := len(b) - mark
	var prefix [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(prefix[:], uint64(n))
	b = append(b, prefix[:k]...)
	copy(b[mark+k:], b[mark:mark+n])
	copy(b[mark:], prefix[:k])
	return b
}

// appendSeries appends one TimeSeries: name and labels (sorted by name,
// the __name__ first, as remote write requires; Series.Labels are kept
// sorted), and its points, each at its time in ms.
func appendSeries(b []byte, name string, labels []Label, points []point) []byte {
	return appendMessage(b, writeTimeseries, func(b []byte) []byte {
		b = appendLabel(b, "__name__", name)
		for _, l := range labels {
			b = appendLabel(b, l.Name, l.Value)
		}
		for _, p := range points {
			if p.hist != nil {
				b = appendMessage(b, seriesHistograms, func(b []byte) []byte { return appendNative(b, p.hist, p.ms) })
				continue
			}
			b = appendMessage(b, seriesSamples, func(b []byte) []byte {
				return appendVarint(appendDouble(b, sampleValue, p.value), sampleTimestamp, uint64(p.ms))
			})
		}
		return b
	})
}

// point is one sample of a series as encoded: a value or a native
// histogram, at ms.
type point struct {
	ms    int64
	value float64
	hist  *Histogram
}

func appendLabel(b []byte, name, value string) []byte {
	return appendMessage(b, seriesLabels, func(b []byte) []byte {
		return appendString(appendString(b, labelName, name), labelValue, value)
	})
}

// appendNative appends an integer native histogram (Histogram message):
// count, sum, schema, the zero bucket, the positive spans and the deltas
// between consecutive bucket counts, and the time. Gaps of one or two
// empty buckets stay in a span (as zeros), which is smaller than a new
// span; the reset hint is left UNKNOWN, so Prometheus detects resets
// itself.
func appendNative(b []byte, h *Histogram, ms int64) []byte {
	b = appendVarint(b, histCountInt, h.Count)
	b = appendDouble(b, histSum, h.Sum)
	b = appendVarint(b, histSchema, zigzag(Schema))
	b = appendDouble(b, histZeroThreshold, ZeroThreshold)
	b = appendVarint(b, histZeroCountInt, 0)
	spans, counts := nativeSpans(h.Buckets)
	for _, s := range spans {
		b = appendMessage(b, histPositiveSpans, func(b []byte) []byte {
			return appendVarint(appendVarint(b, spanOffset, zigzag(int64(s.offset))), spanLength, uint64(s.length))
		})
	}
	if len(counts) > 0 {
		b = appendMessage(b, histPositiveDelta, func(b []byte) []byte {
			var prev int64
			for _, c := range counts {
				b = binary.AppendUvarint(b, zigzag(int64(c)-prev))
				prev = int64(c)
			}
			return b
		})
	}
	return appendVarint(b, histTimestamp, uint64(ms))
}

// span is a BucketSpan: offset is the first bucket's index for the first
// span, else the gap after the span before it.
type span struct {
	offset int32
	length uint32
}

// maxZeroRun is the longest run of empty buckets kept inside a span.
const maxZeroRun = 2

// nativeSpans turns populated buckets into spans and the counts they
// cover (zeros for the empty buckets kept in a span).
func nativeSpans(buckets []Bucket) ([]span, []uint64) {
	var spans []span
	var counts []uint64
	for i, bk := range buckets {
		gap := int32(0)
		if i > 0 {
			gap = bk.Index - buckets[i-1].Index - 1
		}
		switch {
		case i == 0:
			spans = append(spans, span{offset: bk.Index})
		case gap > maxZeroRun:
			spans = append(spans, span{offset: gap})
		default:
			for range gap {
				counts = append(counts, 0)
				spans[len(spans)-1].length++
			}
		}
		counts = append(counts, bk.Count)
		spans[len(spans)-1].length++
	}
	return spans, counts
}

// formatBound writes a classic bucket's le label as Prometheus does.
func formatBound(v float64) string {
	if math.IsInf(v, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
