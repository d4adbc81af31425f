package stats

import "testing"

func TestMedian(t *testing.T) {
	tests := []struct {
		name   string
		values []int64
		want   int64
	}{
		{"one", []int64{7}, 7},
		{"odd, unsorted", []int64{9, 1, 5, 3, 7}, 5},
		{"even: mean of the middle two", []int64{4, 1, 3, 2}, 2},
		{"large values do not overflow", []int64{1 << 62, 1<<62 + 2}, 1<<62 + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Median(tt.values); got != tt.want {
				t.Errorf("Median(%v) = %d, want %d", tt.values, got, tt.want)
			}
		})
	}
	if got := Median([]float64{0.5, 2, 1.5, 1}); got != 1.25 {
		t.Errorf("Median of floats = %v, want 1.25", got)
	}
	in := []int64{3, 1, 2}
	if Median(in); in[0] != 3 || in[1] != 1 {
		t.Errorf("Median sorted its argument: %v", in)
	}
}
