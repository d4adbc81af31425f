package h3fixture

import (
	"testing"
	"time"
)

func TestBehaviourValidate(t *testing.T) {
	cases := []struct {
		name string
		b    Behaviour
		ok   bool
	}{
		{"zero", Behaviour{}, true},
		{"everything honest", Behaviour{Status: 503, BodySize: 10, Delay: time.Millisecond, MaxStreams: 5}, true},
		{"three schedules", Behaviour{RejectEvery: 2, ResetEvery: 3, StallEvery: 5, ResetCode: 7}, true},
		{"GOAWAY with schedules", Behaviour{GoAwayAfter: 3, ResetEvery: 2, StallEvery: 3}, true},
		{"ContentLengthMismatch with an ending", Behaviour{ContentLengthMismatch: true, CloseAfter: 2}, true},
		{"fault with a schedule", Behaviour{BadQPACK: true, RejectEvery: 2}, true},
		{"negative", Behaviour{BodySize: -1}, false},
		{"negative delay", Behaviour{Delay: -time.Second}, false},
		{"negative MaxStreams", Behaviour{MaxStreams: -1}, false},
		{"status 1xx", Behaviour{Status: 103}, false},
		{"status 600", Behaviour{Status: 600}, false},
		{"NoH3ALPN alone", Behaviour{NoH3ALPN: true}, true},
		{"NoH3ALPN with a body", Behaviour{NoH3ALPN: true, BodySize: 1}, false},
		{"NoHandshake alone", Behaviour{NoHandshake: true}, true},
		{"NoHandshake and NoH3ALPN", Behaviour{NoHandshake: true, NoH3ALPN: true}, false},
		{"two faults", Behaviour{ReservedFrame: true, BadQPACK: true}, false},
		{"two endings", Behaviour{GoAwayAfter: 1, CloseAfter: 2}, false},
		{"ReservedFrame with an ending", Behaviour{ReservedFrame: true, GoAwayAfter: 2}, false},
		{"CloseAfter with a schedule", Behaviour{CloseAfter: 2, StallEvery: 3}, false},
		{"StatelessResetAfter with a schedule", Behaviour{StatelessResetAfter: 2, RejectEvery: 3}, false},
		{"ResetCode without ResetEvery", Behaviour{ResetCode: 5}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.b.validate()
			if (err == nil) != tc.ok {
				t.Errorf("validate() = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}
