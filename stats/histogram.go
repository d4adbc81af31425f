package stats

import (
	"fmt"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// EncodeHistogram returns h as base64 text in HdrHistogram's V2 compressed
// format (the one the Java, C and Go implementations all read), or "" if h
// is empty.
func EncodeHistogram(h *hdrhistogram.Histogram) (string, error) {
	if h.TotalCount() == 0 {
		return "", nil
	}
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return "", fmt.Errorf("encoding latency histogram: %w", err)
	}
	return string(b), nil
}

// DecodeHistogram parses text written by EncodeHistogram. An empty string
// decodes to an empty histogram.
func DecodeHistogram(s string) (*hdrhistogram.Histogram, error) {
	if s == "" {
		return NewHistogram(), nil
	}
	h, err := hdrhistogram.Decode([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("decoding latency histogram: %w", err)
	}
	return h, nil
}
