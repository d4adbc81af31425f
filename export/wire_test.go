package export

import (
	"encoding/binary"
	"fmt"
	"math"
)

// field is one protobuf field as the tests read it back: a varint, a
// double (fixed64) or bytes (an embedded message, a string, a packed
// list).
type field struct {
	num   int
	wire  int
	u     uint64
	bytes []byte
}

// fields reads a protobuf message's fields, independently of the
// encoder (the wire format: a varint tag, then a varint, 8 bytes, or a
// varint length and the bytes).
func fields(b []byte) ([]field, error) {
	var out []field
	for len(b) > 0 {
		tag, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, fmt.Errorf("bad tag")
		}
		b = b[n:]
		f := field{num: int(tag >> 3), wire: int(tag & 7)}
		switch f.wire {
		case 0:
			f.u, n = binary.Uvarint(b)
			if n <= 0 {
				return nil, fmt.Errorf("bad varint in field %d", f.num)
			}
			b = b[n:]
		case 1:
			if len(b) < 8 {
				return nil, fmt.Errorf("short fixed64 in field %d", f.num)
			}
			f.u, b = binary.LittleEndian.Uint64(b), b[8:]
		case 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				return nil, fmt.Errorf("bad length in field %d", f.num)
			}
			f.bytes, b = b[n:n+int(l)], b[n+int(l):]
		default:
			return nil, fmt.Errorf("wire type %d in field %d", f.wire, f.num)
		}
		out = append(out, f)
	}
	return out, nil
}

func (f field) double() float64 { return math.Float64frombits(f.u) }

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// decodedSeries is a TimeSeries read back.
type decodedSeries struct {
	labels  []Label
	samples []decodedSample
	hists   []decodedHist
}

type decodedSample struct {
	value float64
	ms    int64
}

type decodedHist struct {
	count, zeroCount uint64
	sum, zeroThresh  float64
	schema           int64
	spans            []span
	deltas           []int64
	ms               int64
}

// decodeWriteRequest reads a WriteRequest back.
func decodeWriteRequest(b []byte) ([]decodedSeries, error) {
	top, err := fields(b)
	if err != nil {
		return nil, err
	}
	var out []decodedSeries
	for _, ts := range top {
		if ts.num != writeTimeseries || ts.wire != 2 {
			return nil, fmt.Errorf("WriteRequest field %d", ts.num)
		}
		fs, err := fields(ts.bytes)
		if err != nil {
			return nil, err
		}
		var s decodedSeries
		for _, f := range fs {
			inner, err := fields(f.bytes)
			if err != nil {
				return nil, err
			}
			switch f.num {
			case seriesLabels:
				s.labels = append(s.labels, Label{string(inner[0].bytes), string(inner[1].bytes)})
			case seriesSamples:
				s.samples = append(s.samples, decodedSample{inner[0].double(), int64(inner[1].u)})
			case seriesHistograms:
				h, err := decodeHist(inner)
				if err != nil {
					return nil, err
				}
				s.hists = append(s.hists, h)
			}
		}
		out = append(out, s)
	}
	return out, nil
}

func decodeHist(fs []field) (decodedHist, error) {
	var h decodedHist
	for _, f := range fs {
		switch f.num {
		case histCountInt:
			h.count = f.u
		case histSum:
			h.sum = f.double()
		case histSchema:
			h.schema = unzigzag(f.u)
		case histZeroThreshold:
			h.zeroThresh = f.double()
		case histZeroCountInt:
			h.zeroCount = f.u
		case histPositiveSpans:
			sf, err := fields(f.bytes)
			if err != nil {
				return h, err
			}
			var s span
			for _, x := range sf {
				if x.num == spanOffset {
					s.offset = int32(unzigzag(x.u))
				} else {
					s.length = uint32(x.u)
				}
			}
			h.spans = append(h.spans, s)
		case histPositiveDelta:
			for b := f.bytes; len(b) > 0; {
				u, n := binary.Uvarint(b)
				if n <= 0 {
					return h, fmt.Errorf("bad delta")
				}
				h.deltas, b = append(h.deltas, unzigzag(u)), b[n:]
			}
		case histTimestamp:
			h.ms = int64(f.u)
		default:
			return h, fmt.Errorf("histogram field %d", f.num)
		}
	}
	return h, nil
}

// buckets turns a decoded histogram's spans and deltas back into buckets.
func (h decodedHist) buckets() []Bucket {
	var out []Bucket
	var idx int32
	var count int64
	k := 0
	for i, s := range h.spans {
		if i == 0 {
			idx = s.offset
		} else {
			idx += s.offset
		}
		for range s.length {
			count += h.deltas[k]
			k++
			if count > 0 {
				out = append(out, Bucket{idx, uint64(count)})
			}
			idx++
		}
	}
	return out
}
