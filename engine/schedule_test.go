package engine

import (
	"testing"
	"time"
)

func TestSchedule(t *testing.T) {
	s := newSchedule(10, 3*time.Second, []float64{10, 50, 250}, nil, 5*time.Minute)
	tests := []struct {
		i     int64
		due   time.Duration
		phase int
		ok    bool
	}{
		{0, 0, 0, true},                         // warm-up starts at once
		{29, 2900 * time.Millisecond, 0, true},  // its last request: 30 at 10/s
		{30, 3 * time.Second, 1, true},          // stage 1 starts after the warm-up
		{31, 3100 * time.Millisecond, 1, true},  // 10/s
		{30 + 3000, 303 * time.Second, 2, true}, // stage 2: 3,000 requests later
		{30 + 3000 + 1, 303*time.Second + 20*time.Millisecond, 2, true},
		{30 + 3000 + 15000, 603 * time.Second, 3, true}, // stage 3 at 250/s
		{30 + 3000 + 15000 + 75000 - 1, 903*time.Second - 4*time.Millisecond, 3, true},
		{30 + 3000 + 15000 + 75000, 0, 0, false}, // past the end
	}
	for _, tt := range tests {
		due, phase, ok := s.at(tt.i)
		if due != tt.due || phase != tt.phase || ok != tt.ok {
			t.Errorf("at(%d) = %v, %d, %v; want %v, %d, %v", tt.i, due, phase, ok, tt.due, tt.phase, tt.ok)
		}
	}
	if s.Total != 30+3000+15000+75000 || s.end != 903*time.Second {
		t.Errorf("total %d, end %v", s.Total, s.end)
	}
}

func TestScheduleFractionalRates(t *testing.T) {
	s := newSchedule(0, 0, []float64{0.5, 2.5}, nil, 10*time.Second)
	if s.Total != 5+25 {
		t.Errorf("total %d, want 30", s.Total)
	}
	if due, _, _ := s.at(1); due != 2*time.Second {
		t.Errorf("0.5/s: second request due at %v, want 2s", due)
	}
	if due, _, _ := s.at(6); due != 10*time.Second+400*time.Millisecond {
		t.Errorf("2.5/s: second request of stage 2 due at %v, want 10.4s", due)
	}
}

// The parts of a sharded schedule are, together, the whole schedule: each
// request due once, in one part, at its time; with ramps too.
func TestShardedScheduleIsTheWholeOne(t *testing.T) {
	for _, from := range [][]float64{nil, {1, 13}} {
		testShardedSchedule(t, from)
	}
}

func testShardedSchedule(t *testing.T, from []float64) {
	whole := newSchedule(10, time.Second, []float64{7, 13}, from, 3*time.Second)
	seen := make(map[time.Duration]int)
	var total int64
	for i := range 3 {
		part := newSchedule(10, time.Second, []float64{7, 13}, from, 3*time.Second)
		part.share(Shard{Index: i, Count: 3})
		total += part.Total
		for j := int64(0); ; j++ {
			due, _, ok := part.at(j)
			if !ok {
				break
			}
			seen[due]++
		}
	}
	if total != whole.Total || int64(len(seen)) != whole.Total {
		t.Fatalf("parts hold %d requests at %d distinct times, want %d", total, len(seen), whole.Total)
	}
	for i := range whole.Total {
		due, _, _ := whole.at(i)
		if seen[due] != 1 {
			t.Errorf("request %d, due at %v, is in %d parts", i, due, seen[due])
		}
	}
}

func TestShardShares(t *testing.T) {
	tests := []struct {
		total int64
		count int
		want  []int64
	}{
		{1000, 3, []int64{334, 333, 333}},
		{7, 7, []int64{1, 1, 1, 1, 1, 1, 1}},
		{5, 2, []int64{3, 2}},
	}
	for _, tt := range tests {
		for i, want := range tt.want {
			if got := (Shard{Index: i, Count: tt.count}).Share(tt.total); got != want {
				t.Errorf("share %d/%d of %d = %d, want %d", i, tt.count, tt.total, got, want)
			}
		}
	}
}
