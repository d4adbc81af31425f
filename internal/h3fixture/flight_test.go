package h3fixture

import (
	"context"
	"slices"
	"testing"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/qlog"
	"github.com/quic-go/quic-go/qlogwriter"
)

func TestMerge(t *testing.T) {
	cases := []struct {
		name  string
		spans []span
		add   span
		want  []span
	}{
		{"into nothing", nil, span{0, 5}, []span{{0, 5}}},
		{"after", []span{{0, 5}}, span{7, 9}, []span{{0, 5}, {7, 9}}},
		{"before", []span{{7, 9}}, span{0, 5}, []span{{0, 5}, {7, 9}}},
		{"adjacent", []span{{0, 5}}, span{5, 9}, []span{{0, 9}}},
		{"bridging", []span{{0, 5}, {7, 9}}, span{4, 8}, []span{{0, 9}}},
		{"inside", []span{{0, 9}}, span{2, 3}, []span{{0, 9}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := merge(tc.spans, tc.add); !slices.Equal(got, tc.want) {
				t.Errorf("merge = %v, want %v", got, tc.want)
			}
		})
	}
}

// sentEvent is a 1-RTT packet pn carrying frames.
func sentEvent(pn qlog.PacketNumber, frames ...any) qlogwriter.Event {
	e := qlog.PacketSent{Header: qlog.PacketHeader{PacketType: qlog.PacketType1RTT, PacketNumber: pn}}
	for _, f := range frames {
		e.Frames = append(e.Frames, qlog.Frame{Frame: f})
	}
	return e
}

// ackEvent is a 1-RTT packet acknowledging [from, to].
func ackEvent(from, to qlog.PacketNumber) qlogwriter.Event {
	ack := &qlog.AckFrame{AckRanges: []qlog.AckRange{{Smallest: from, Largest: to}}}
	return qlog.PacketReceived{Header: qlog.PacketHeader{PacketType: qlog.PacketType1RTT}, Frames: []qlog.Frame{{Frame: ack}}}
}

// lostEvent declares 1-RTT packet pn lost.
func lostEvent(pn qlog.PacketNumber) qlogwriter.Event {
	return qlog.PacketLost{Header: qlog.PacketHeader{PacketType: qlog.PacketType1RTT, PacketNumber: pn}}
}

func TestFlight(t *testing.T) {
	data := func(off, n int64, fin bool) *qlog.StreamFrame {
		return &qlog.StreamFrame{StreamID: 4, Offset: off, Length: n, Fin: fin}
	}
	cases := []struct {
		name   string
		events []qlogwriter.Event
		want   bool
	}{
		{"nothing sent", nil, false},
		{"sent, not acknowledged", []qlogwriter.Event{sentEvent(1, data(0, 10, true))}, false},
		{"one packet acknowledged", []qlogwriter.Event{sentEvent(1, data(0, 10, true)), ackEvent(0, 3)}, true},
		{"FIN acknowledged, data not", []qlogwriter.Event{sentEvent(1, data(0, 10, false)), sentEvent(2, data(10, 5, true)), ackEvent(2, 2)}, false},
		{"both acknowledged", []qlogwriter.Event{sentEvent(1, data(0, 10, false)), sentEvent(2, data(10, 5, true)), ackEvent(2, 2), ackEvent(1, 1)}, true},
		{"lost, then sent again", []qlogwriter.Event{
			sentEvent(1, data(0, 10, false)), sentEvent(2, data(10, 5, true)), lostEvent(1), ackEvent(1, 2), sentEvent(3, data(0, 10, false)), ackEvent(3, 3),
		}, true},
		{"lost, not sent again", []qlogwriter.Event{sentEvent(1, data(0, 10, false)), sentEvent(2, data(10, 5, true)), lostEvent(1), ackEvent(1, 2)}, false},
		{"reset acknowledged", []qlogwriter.Event{sentEvent(1, &qlog.ResetStreamFrame{StreamID: 4}), ackEvent(1, 1)}, true},
		{"another stream acknowledged", []qlogwriter.Event{sentEvent(1, &qlog.StreamFrame{StreamID: 8, Length: 1, Fin: true}), ackEvent(1, 1)}, false},
		{"handshake packets ignored", []qlogwriter.Event{
			qlog.PacketSent{Header: qlog.PacketHeader{PacketType: qlog.PacketTypeHandshake, PacketNumber: 1}, Frames: []qlog.Frame{{Frame: data(0, 1, true)}}},
			ackEvent(1, 1),
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, _ := withFlight(context.Background(), nil)
			f := flightOf(ctx)
			rec := traceFlight(ctx, false, quic.ConnectionID{}).AddProducer()
			for _, e := range tc.events {
				rec.RecordEvent(e)
			}
			f.mu.Lock()
			got := f.delivered(4)
			f.mu.Unlock()
			want(t, "delivered", got, tc.want)
		})
	}
}
