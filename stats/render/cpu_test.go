package render

import "testing"

func TestFormatCPUPerRequest(t *testing.T) {
	tests := []struct {
		us       float64
		requests int64
		want     string
	}{
		{38.4, 500, "40us"},        // one 10 ms tick over 500 requests is 20us
		{20, 500, "20us"},          // a single tick
		{0, 500, "<20us"},          // no tick: less than one
		{289.3, 8123, "289us"},     // 1.2us a tick
		{15.25, 40000, "15.3us"},   // 0.25us
		{38.4, 400_000, "38.40us"}, // 0.025us
		{1234.5, 100, "1.2ms"},     // 100us a tick
		{0.0002, 20_000_000, "<0.0005us"},
		{12, 0, "-"},
	}
	for _, tt := range tests {
		if got := FormatCPUPerRequest(tt.us, tt.requests); got != tt.want {
			t.Errorf("FormatCPUPerRequest(%v, %d) = %q, want %q", tt.us, tt.requests, got, tt.want)
		}
	}
}
