package stats

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
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
// decodes to an empty histogram. A histogram of finer precision than
// pummel's is refused before it is decoded: its header alone could make
// the decoder allocate tens of megabytes (see checkGeometry).
func DecodeHistogram(s string) (*hdrhistogram.Histogram, error) {
	if s == "" {
		return record.NewHistogram(), nil
	}
	if err := checkGeometry(s); err != nil {
		return nil, fmt.Errorf("decoding latency histogram: %w", err)
	}
	h, err := hdrhistogram.Decode([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("decoding latency histogram: %w", err)
	}
	return h, nil
}

// geometry is the header of a V2 histogram, after its compression: what
// sizes its counts.
type geometry struct {
	Cookie, PayloadLength, NormalizingOffset, Digits int32
	Lowest, Highest                                  int64
}

// checkGeometry refuses an encoded histogram finer than pummel's
// (HistogramDigits significant digits) or with a lowest value below 1:
// at pummel's precision the counts of any range take under 512 KiB, at 5
// digits up to 50 MiB. A wider range is left to the merge, which reports
// the latencies it cannot hold. What it cannot read it leaves to the
// decoder to refuse.
func checkGeometry(s string) error {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(raw) < 8 {
		return nil
	}
	n := int64(int32(binary.BigEndian.Uint32(raw[4:8])))
	if n < 0 || n > int64(len(raw)-8) {
		return nil
	}
	z, err := zlib.NewReader(bytes.NewReader(raw[8 : 8+n]))
	if err != nil {
		return nil
	}
	defer z.Close()
	var g geometry
	if binary.Read(z, binary.BigEndian, &g) != nil {
		return nil
	}
	if g.Digits > record.HistogramDigits || g.Lowest < record.HistogramMin {
		return fmt.Errorf("%d significant digits from %d ns, finer than pummel's %d digits from %d ns",
			g.Digits, g.Lowest, record.HistogramDigits, record.HistogramMin)
	}
	return nil
}
