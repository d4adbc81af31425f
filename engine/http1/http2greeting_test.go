package http1

import (
	"bytes"
	"testing"

	"golang.org/x/net/http2"
)

func TestHTTP2Greeting(t *testing.T) {
	var settings, goAway, headers bytes.Buffer
	fr := http2.NewFramer(&settings, nil)
	_ = fr.WriteSettings(http2.Setting{ID: http2.SettingMaxConcurrentStreams, Val: 128})
	_ = http2.NewFramer(&goAway, nil).WriteGoAway(0, http2.ErrCodeProtocol, nil)
	_ = http2.NewFramer(&headers, nil).WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: []byte{0x88}, EndHeaders: true})
	var empty bytes.Buffer
	_ = http2.NewFramer(&empty, nil).WriteSettings()
	tests := []struct {
		name string
		b    []byte
		want bool
	}{
		{"SETTINGS", settings.Bytes(), true},
		{"empty SETTINGS", empty.Bytes(), true},
		{"SETTINGS then GOAWAY", append(settings.Bytes(), goAway.Bytes()...), true},
		{"its header alone", settings.Bytes()[:9], true},
		{"part of its header", settings.Bytes()[:8], false},
		{"GOAWAY", goAway.Bytes(), false},
		{"HEADERS on stream 1", headers.Bytes(), false},
		{"SETTINGS on stream 1", []byte{0, 0, 0, 4, 0, 0, 0, 0, 1}, false},
		{"SETTINGS of a length no setting makes", []byte{0, 0, 5, 4, 0, 0, 0, 0, 0}, false},
		{"SETTINGS with a flag other than ACK", []byte{0, 0, 0, 4, 4, 0, 0, 0, 0}, false},
		{"an HTTP/1.1 response", []byte("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"), false},
		{"nothing", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HTTP2Greeting(tt.b); got != tt.want {
				t.Errorf("HTTP2Greeting(% x) = %v, want %v", tt.b, got, tt.want)
			}
		})
	}
}
