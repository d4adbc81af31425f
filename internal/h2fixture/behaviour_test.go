package h2fixture

import (
	"testing"

	"golang.org/x/net/http2"
)

func TestBehaviourValidate(t *testing.T) {
	cases := []struct {
		name string
		b    Behaviour
		ok   bool
	}{
		{"zero", Behaviour{}, true},
		{"NoSettings over TLS", Behaviour{NoSettings: true, TLS: true}, true},
		{"refuse with stalls", Behaviour{MaxConcurrentStreams: 2, RefuseBeyond: true, StallEvery: 1}, true},
		{"GOAWAY with resets", Behaviour{GoAwayAfter: 3, ResetEvery: 2, ResetCode: http2.ErrCodeCancel}, true},
		{"chunked body", Behaviour{BodySize: 10, DataChunk: 3, Continuation: 1}, true},
		{"negative", Behaviour{BodySize: -1}, false},
		{"status 1xx", Behaviour{Status: 100}, false},
		{"status 600", Behaviour{Status: 600}, false},
		{"window above 2^31-1", Behaviour{InitialWindowSize: 1 << 31}, false},
		{"NoSettings with a body", Behaviour{NoSettings: true, BodySize: 1}, false},
		{"two faults", Behaviour{BadFrame: true, BadHPACK: true}, false},
		{"two endings", Behaviour{CloseAfter: 1, ResetConnAfter: 2}, false},
		{"fault and ending", Behaviour{WindowOverflow: true, GoAwayAfter: 1}, false},
		{"fault and schedule", Behaviour{AnswerUnopened: true, StallEvery: 2}, false},
		{"reset and stall", Behaviour{ResetEvery: 2, StallEvery: 3}, false},
		{"RefuseBeyond without a cap", Behaviour{RefuseBeyond: true}, false},
		{"DataChunk without a body", Behaviour{DataChunk: 4}, false},
		{"Window1 and InitialWindowSize", Behaviour{Window1: true, InitialWindowSize: 10}, false},
		{"ResetCode without ResetEvery", Behaviour{ResetCode: http2.ErrCodeCancel}, false},
		{"FloodPings over TLS", Behaviour{FloodPings: true, TLS: true}, true},
		{"two floods", Behaviour{FloodPings: true, FloodSettings: true}, false},
		{"ContinuationFlood with a body", Behaviour{ContinuationFlood: true, BodySize: 1}, false},
		{"SettingsThenGoAway and NoSettings", Behaviour{SettingsThenGoAway: true, NoSettings: true}, false},
		{"SettingsThenGoAway with a cap", Behaviour{SettingsThenGoAway: true, MaxConcurrentStreams: 1}, false},
		{"ZeroStreams refusing", Behaviour{ZeroStreams: true, RefuseBeyond: true}, true},
		{"ZeroStreams with a cap", Behaviour{ZeroStreams: true, MaxConcurrentStreams: 2}, false},
		{"ZeroWindow and Window1", Behaviour{ZeroWindow: true, Window1: true}, false},
		{"ContentLength short", Behaviour{ContentLength: 10, BodySize: 5}, true},
		{"ContentLength with a fault", Behaviour{ContentLength: 3, BadHPACK: true}, false},
		{"StallMidBody", Behaviour{BodySize: 5, StallMidBody: 2}, true},
		{"StallMidBody not below BodySize", Behaviour{BodySize: 4, StallMidBody: 4}, false},
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
