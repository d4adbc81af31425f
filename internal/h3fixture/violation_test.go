package h3fixture

import (
	"context"
	"testing"
	"time"
)

// TestClientViolations sends what a correct client never sends and checks
// how the server ends the stream or the connection, and that it counts
// one violation.
func TestClientViolations(t *testing.T) {
	withBlock := func(block ...byte) []byte { return appendFrame(nil, frameHeaders, block) }
	get := headers("GET", "/")
	cases := []struct {
		name    string
		request []byte // sent on a request stream, then FIN
		uni     []byte // sent on a second unidirectional stream instead
		stream  int64  // the stream's reset code, or
		conn    int64  // the connection's close code
		counted int64  // requests counted: their HEADERS were read
	}{
		{"DATA before HEADERS", appendFrame(nil, frameData, []byte("x")), nil, -1, CodeFrameUnexpected, 0},
		{"reserved frame type", append(appendFrame(nil, 0x02, nil), get...), nil, -1, CodeFrameUnexpected, 0},
		{"SETTINGS on a request stream", append(get, appendFrame(nil, frameSettings, nil)...), nil, -1, CodeFrameUnexpected, 1},
		{"bad QPACK", withBlock(badQPACK...), nil, -1, CodeQPACKDecompressionFailed, 0},
		{"no :path", withBlock(encodeFields(":method", "GET", ":scheme", "https")...), nil, CodeMessageError, -1, 0},
		{"FIN before HEADERS", []byte{}, nil, CodeRequestIncomplete, -1, 0},
		{"truncated HEADERS", get[:len(get)-1], nil, -1, CodeFrameError, 0},
		{"second control stream", nil, appendFrame([]byte{streamControl}, frameSettings, nil), -1, CodeStreamCreationError, 0},
		{"push stream", nil, []byte{streamPush, 0}, -1, CodeStreamCreationError, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Start(t, Behaviour{})
			c := dial(t, s)
			if tc.uni != nil {
				c.uni(tc.uni)
				checkClosed(t, c, tc.conn)
				want(t, "Violations", s.Violations(), 1)
				return
			}
			str, err := c.open(tc.request)
			if err != nil {
				t.Fatal(err)
			}
			_, err = readResponse(str)
			want(t, "stream reset code", streamCode(err), tc.stream)
			if tc.conn >= 0 {
				checkClosed(t, c, tc.conn)
			}
			want(t, "Violations", s.Violations(), 1)
			want(t, "Requests", s.Requests(), tc.counted)
		})
	}
}

// TestControlStreamViolations opens a connection whose own control
// stream is wrong.
func TestControlStreamViolations(t *testing.T) {
	cases := []struct {
		name string
		send []byte
		fin  bool
		code int64
	}{
		{"no SETTINGS first", appendFrame([]byte{streamControl}, frameData, nil), false, CodeMissingSettings},
		{"closed", appendFrame([]byte{streamControl}, frameSettings, nil), true, CodeClosedCriticalStream},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Start(t, Behaviour{})
			qc, err := dialQUIC(s.Addr(), s.ClientTLS(), nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = qc.CloseWithError(0, "") })
			str, err := qc.OpenUniStream()
			if err != nil {
				t.Fatal(err)
			}
			_, _ = str.Write(tc.send)
			if tc.fin {
				_ = str.Close()
			}
			select {
			case <-qc.Context().Done():
				want(t, "close code", closeCode(context.Cause(qc.Context())), tc.code)
			case <-time.After(testDeadline):
				t.Fatal("the connection stays open")
			}
			want(t, "Violations", s.Violations(), 1)
		})
	}
}

// checkClosed waits for the server to close c's connection with code.
func checkClosed(t *testing.T, c *client, code int64) {
	t.Helper()
	select {
	case <-c.qc.Context().Done():
		want(t, "close code", closeCode(context.Cause(c.qc.Context())), code)
	case <-time.After(testDeadline):
		t.Fatal("the connection stays open")
	}
}
