package stats

import (
	"fmt"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/pummel-dev/pummel/stats/record"
)

// EncodeHistogram returns h as base64 text in HdrHistogram's V2 compressed
// format (the one the Java, C and Go implementations all read), or "" if h
// is empty. h is dense or packed: both give the same text for the same
// counts.
//
// Encoding allocates a compressor of about 1 MB each time, in the library:
// a run encodes its per-second histograms after the clock stops, so that
// the garbage collector does not run during the measurement.
func EncodeHistogram(h Encodable) (string, error) {
	if h.TotalCount() == 0 {
		return "", nil
	}
	b, err := h.EncodeV2()
	if err != nil {
		return "", fmt.Errorf("encoding latency histogram: %w", err)
	}
	return string(b), nil
}

// Encodable is what hdrhistogram-go's dense and packed histograms share
// for encoding.
type Encodable interface {
	TotalCount() int64
	EncodeV2() ([]byte, error)
}

// DecodeHistogram parses text written by EncodeHistogram. An empty string
// decodes to an empty histogram.
func DecodeHistogram(s string) (*hdrhistogram.Histogram, error) {
	if s == "" {
		return record.NewHistogram(), nil
	}
	h, err := hdrhistogram.Decode([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("decoding latency histogram: %w", err)
	}
	return h, nil
}
