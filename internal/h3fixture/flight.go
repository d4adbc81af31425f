package h3fixture

import (
	"context"
	"sync"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/qlog"
	"github.com/quic-go/quic-go/qlogwriter"
)

// flight learns from a connection's qlog events when the client has
// acknowledged the end of a stream the server finished: every byte up to
// its FIN, or its RESET_STREAM. A GOAWAY close waits for that, because
// quic-go's CloseWithError drops stream data not yet sent (or lost and not
// yet sent again), and the client would miss responses the server counted.
// quic-go offers no other way to see an acknowledgement.
type flight struct {
	mu      sync.Mutex
	packets map[qlog.PacketNumber][]sentFrame // 1-RTT packets neither acknowledged nor lost
	streams map[quic.StreamID]*delivery
	changed chan struct{} // closed, and replaced, when a delivery progresses
}

// sentFrame is the part of a STREAM or RESET_STREAM frame flight follows.
type sentFrame struct {
	id     quic.StreamID
	offset int64
	length int64
	fin    bool
	reset  bool
}

// delivery is what the client has acknowledged of one stream.
type delivery struct {
	acked    []span // acknowledged byte ranges, merged and sorted
	final    int64  // the stream's length, once a frame with FIN is acknowledged
	finAcked bool
	reset    bool // a RESET_STREAM was acknowledged
}

// span is the byte range [from, to).
type span struct{ from, to int64 }

// flightKey carries a connection's flight in its context.
type flightKey struct{}

// withFlight is a quic.Transport.ConnContext that gives each connection a
// flight.
func withFlight(ctx context.Context, _ *quic.ClientInfo) (context.Context, error) {
	f := &flight{packets: map[qlog.PacketNumber][]sentFrame{}, streams: map[quic.StreamID]*delivery{}, changed: make(chan struct{})}
	return context.WithValue(ctx, flightKey{}, f), nil
}

// traceFlight is a quic.Config.Tracer that feeds a connection's events to
// its flight.
func traceFlight(ctx context.Context, _ bool, _ quic.ConnectionID) qlogwriter.Trace {
	if f := flightOf(ctx); f != nil {
		return f
	}
	return nil
}

// flightOf returns the flight in ctx, or nil.
func flightOf(ctx context.Context) *flight {
	f, _ := ctx.Value(flightKey{}).(*flight)
	return f
}

// AddProducer implements qlogwriter.Trace: flight records its own events.
func (f *flight) AddProducer() qlogwriter.Recorder { return f }

// Close implements qlogwriter.Recorder.
func (f *flight) Close() error { return nil }

// RecordEvent implements qlogwriter.Recorder. It runs on the connection's
// own goroutine, for every packet.
func (f *flight) RecordEvent(e qlogwriter.Event) {
	switch e := e.(type) {
	case qlog.PacketSent:
		if e.Header.PacketType == qlog.PacketType1RTT {
			f.sent(e.Header.PacketNumber, e.Frames)
		}
	case qlog.PacketReceived:
		if e.Header.PacketType != qlog.PacketType1RTT {
			return
		}
		for _, fr := range e.Frames {
			if ack, ok := fr.Frame.(*qlog.AckFrame); ok {
				f.ack(ack.AckRanges)
			}
		}
	case qlog.PacketLost:
		if e.Header.PacketType == qlog.PacketType1RTT {
			f.mu.Lock()
			delete(f.packets, e.Header.PacketNumber) // its frames are sent again in new packets
			f.mu.Unlock()
		}
	}
}

// sent records the stream frames of a packet.
func (f *flight) sent(pn qlog.PacketNumber, frames []qlog.Frame) {
	var fs []sentFrame
	for _, fr := range frames {
		switch fr := fr.Frame.(type) {
		case *qlog.StreamFrame:
			fs = append(fs, sentFrame{id: fr.StreamID, offset: fr.Offset, length: fr.Length, fin: fr.Fin})
		case *qlog.ResetStreamFrame:
			fs = append(fs, sentFrame{id: fr.StreamID, reset: true})
		}
	}
	if len(fs) > 0 {
		f.mu.Lock()
		f.packets[pn] = fs
		f.mu.Unlock()
	}
}

// ack applies the acknowledgement of the packets in ranges.
func (f *flight) ack(ranges []qlog.AckRange) {
	f.mu.Lock()
	defer f.mu.Unlock()
	progress := false
	for pn, fs := range f.packets {
		for _, r := range ranges {
			if pn >= r.Smallest && pn <= r.Largest {
				f.deliver(fs)
				delete(f.packets, pn)
				progress = true
				break
			}
		}
	}
	if progress {
		close(f.changed)
		f.changed = make(chan struct{})
	}
}

// deliver records acknowledged frames; f.mu must be held.
func (f *flight) deliver(fs []sentFrame) {
	for _, fr := range fs {
		d := f.streams[fr.id]
		if d == nil {
			d = &delivery{}
			f.streams[fr.id] = d
		}
		switch {
		case fr.reset:
			d.reset = true
		default:
			d.acked = merge(d.acked, span{fr.offset, fr.offset + fr.length})
			if fr.fin {
				d.final, d.finAcked = fr.offset+fr.length, true
			}
		}
	}
}

// merge adds s to the sorted, disjoint spans.
func merge(spans []span, s span) []span {
	out := spans[:0:0]
	for _, o := range spans {
		switch {
		case o.to < s.from:
			out = append(out, o)
		case s.to < o.from:
			out = append(out, s)
			s = o
		default:
			s = span{min(s.from, o.from), max(s.to, o.to)}
		}
	}
	return append(out, s)
}

// delivered reports whether the client has acknowledged the end of
// stream id; f.mu must be held.
func (f *flight) delivered(id quic.StreamID) bool {
	d := f.streams[id]
	if d == nil {
		return false
	}
	return d.reset || d.finAcked && (d.final == 0 || len(d.acked) == 1 && d.acked[0] == span{0, d.final})
}

// wait waits until every stream in ids is delivered, and reports whether
// they were before ctx or done ended.
func (f *flight) wait(ctx context.Context, done <-chan struct{}, ids []quic.StreamID) bool {
	for {
		f.mu.Lock()
		all := true
		for _, id := range ids {
			all = all && f.delivered(id)
		}
		changed := f.changed
		f.mu.Unlock()
		if all {
			return true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return false
		case <-done:
			return false
		}
	}
}
