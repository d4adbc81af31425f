package h3fixture

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/quic-go/quic-go"
)

func TestNoH3ALPN(t *testing.T) {
	s := Start(t, Behaviour{NoH3ALPN: true})
	_, err := dialQUIC(s.Addr(), s.ClientTLS(), nil)
	var te *quic.TransportError
	if !errors.As(err, &te) || te.ErrorCode != 0x178 || !te.Remote {
		t.Errorf("dial: %v, want the server's CRYPTO_ERROR 0x178 (no application protocol)", err)
	}
	want(t, "Connections", s.Connections(), 0)
}

func TestNoHandshake(t *testing.T) {
	s := Start(t, Behaviour{NoHandshake: true})
	start := time.Now()
	_, err := dialQUIC(s.Addr(), s.ClientTLS(), &quic.Config{HandshakeIdleTimeout: 200 * time.Millisecond})
	if !errors.As(err, new(*quic.IdleTimeoutError)) && !errors.As(err, new(*quic.HandshakeTimeoutError)) {
		t.Errorf("dial: %v, want a handshake timeout", err)
	}
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Errorf("dial failed after %v, before its timeout", d)
	}
	want(t, "Connections", s.Connections(), 0)
}

// TestFaults reads each faulty response frame by frame.
func TestFaults(t *testing.T) {
	cases := []struct {
		name  string
		b     Behaviour
		check func(t *testing.T, r response)
	}{
		{"ReservedFrame", Behaviour{ReservedFrame: true, BodySize: 3}, func(t *testing.T, r response) {
			want(t, "frames", slices.Equal(r.frames, []uint64{0x02, frameHeaders, frameData}), true)
			want(t, "the rest", r.ok(200, 3), true)
		}},
		{"BadQPACK", Behaviour{BadQPACK: true, BodySize: 3}, func(t *testing.T, r response) {
			want(t, "frames", slices.Equal(r.frames, []uint64{frameHeaders}), true)
			if r.decodeErr == nil {
				t.Error("the header block decoded")
			}
		}},
		{"ContentLengthMismatch", Behaviour{ContentLengthMismatch: true, BodySize: 10}, func(t *testing.T, r response) {
			want(t, "content-length", r.length, "15")
			want(t, "body", r.body, 10)
		}},
		{"ContentLengthMismatch without a body", Behaviour{ContentLengthMismatch: true}, func(t *testing.T, r response) {
			want(t, "content-length", r.length, "5")
			want(t, "frames", slices.Equal(r.frames, []uint64{frameHeaders}), true)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Start(t, tc.b)
			tc.check(t, dial(t, s).get("/"))
			want(t, "Faults", s.Faults(), 1)
			want(t, "Responses", s.Responses(), 0)
			want(t, "Requests", s.Requests(), 1)
		})
	}
}
