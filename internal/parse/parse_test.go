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

func TestCount(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"64", 64, true},
		{"1k", 1_000, true},
		{"1K", 1_000, true},
		{"1.5M", 1_500_000, true},
		{"2G", 2_000_000_000, true},
		{"0", 0, true},
		{"1.5", 0, false},
		{"-1", 0, false},
		{"1kk", 0, false},
		{"1KiB", 0, false}, // a size, not a count
		{"1kB", 0, false},
		{"k", 0, false},
		{"Inf", 0, false},
		{"NaN", 0, false},
		{"3000G", 0, false}, // beyond any load
		{"lots", 0, false},
	}
	for _, tt := range tests {
		if got, ok := Count(tt.in); ok != tt.ok || got != tt.want {
			t.Errorf("Count(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"65536", 65536, true},
		{"65536B", 65536, true},
		{"64k", 64_000, true},
		{"64kB", 64_000, true},
		{"64KB", 64_000, true},
		{"64MB", 64_000_000, true},
		{"1GB", 1_000_000_000, true},
		{"64KiB", 64 << 10, true},
		{"1.5GiB", 3 << 29, true},
		{"B", 0, false},
		{"0.1KiB", 0, false},
		{"64KiBB", 0, false},
		{"64XB", 0, false},
		{"-1MiB", 0, false},
	}
	for _, tt := range tests {
		if got, ok := Size(tt.in); ok != tt.ok || got != tt.want {
			t.Errorf("Size(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRate(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"100", 100, true},
		{"0.5", 0.5, true},
		{"20k", 20_000, true},
		{"20K", 20_000, true}, // as a count, and as rps>=20K
		{"1.5M", 1_500_000, true},
		{"1G", 1e9, true},
		{"0", 0, false},
		{"-1", 0, false},
		{"1e308k", 0, false},
		{"20KiB", 0, false},
		{"fast", 0, false},
	}
	for _, tt := range tests {
		if got, ok := Rate(tt.in); ok != tt.ok || got != tt.want {
			t.Errorf("Rate(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
