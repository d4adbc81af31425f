package parse

import (
	"testing"
	"time"
)

func TestStatusAndStatusIn(t *testing.T) {
	tests := []struct {
		in     string
		want   StatusRange
		ok     bool
		member int
	}{
		{"200", StatusRange{200, 200}, true, 200},
		{"2xx", StatusRange{200, 299}, true, 250},
		{"5xx", StatusRange{500, 599}, true, 599},
		{"6xx", StatusRange{}, false, 0},
		{"99", StatusRange{}, false, 0},
		{"abc", StatusRange{}, false, 0},
	}
	for _, tt := range tests {
		got, ok := Status(tt.in)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("Status(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
		if ok && (!StatusIn([]StatusRange{got}, tt.member) || StatusIn([]StatusRange{got}, got.Hi+1)) {
			t.Errorf("StatusIn with %v: %d in, %d out", got, tt.member, got.Hi+1)
		}
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"500ms", 500 * time.Millisecond, true},
		{"30", 30 * time.Second, true},
		{"1.5", 1500 * time.Millisecond, true},
		{"-1", 0, false},
		{"-1s", 0, false},
		{"NaN", 0, false},
		{"1e300", 0, false},
		{"soon", 0, false},
	}
	for _, tt := range tests {
		if got, ok := Duration(tt.in); ok != tt.ok || got != tt.want {
			t.Errorf("Duration(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
