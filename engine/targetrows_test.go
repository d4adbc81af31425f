package engine

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
)

// roundRobin is smooth weighted round robin as written plainly, a step
// over every target: Sequence must give the same interleaving.
func roundRobin(weights []int) []uint32 {
	total := 0
	for _, w := range weights {
		total += w
	}
	var seq []uint32
	current := make([]int, len(weights))
	for range total {
		best := 0
		for i, w := range weights {
			current[i] += w
			if current[i] > current[best] {
				best = i
			}
		}
		current[best] -= total
		seq = append(seq, uint32(best))
	}
	return seq
}

func TestSequenceIsTheSmoothRoundRobin(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := [][]int{{1}, {1, 1, 1}, {1, 3, 6}, {5, 1, 5, 1, 2}, {7, 7, 7, 3}}
	for range 50 {
		ws := make([]int, 1+rng.IntN(30))
		for i := range ws {
			ws[i] = 1 + rng.IntN(4)*rng.IntN(5)
		}
		cases = append(cases, ws)
	}
	for _, ws := range cases {
		if got, want := Sequence(ws), roundRobin(ws); !slices.Equal(got, want) {
			t.Errorf("Sequence(%v) = %v, want %v", ws, got, want)
		}
	}
}

// listOf is n targets of srv, /u/0 to /u/{n-1}, weight 1, named by name
// (nil: unnamed).
func listOf(t *testing.T, base string, n int, name func(int) string) []Target {
	t.Helper()
	ts := make([]Target, n)
	for i := range ts {
		u, err := url.Parse(fmt.Sprintf("%s/u/%d", strings.TrimSuffix(base, "/"), i))
		if err != nil {
			t.Fatal(err)
		}
		ts[i] = Target{URL: u, Weight: 1}
		if name != nil {
			ts[i].Name = name(i)
		}
	}
	return ts
}

func TestTargetRows(t *testing.T) {
	byThree := func(i int) string { return []string{"a", "b", "c"}[i%3] }
	someNamed := func(i int) string {
		if i%2 == 0 {
			return fmt.Sprintf("n%d", i/2%60)
		}
		return ""
	}
	tests := []struct {
		name    string
		targets []Target
		want    []TargetRow
	}{
		{"each its own", listOf(t, "http://h", 3, nil), []TargetRow{{"", 0, 1, 1}, {"", 1, 1, 1}, {"", 2, 1, 1}}},
		{"names group", listOf(t, "http://h", 300, byThree), []TargetRow{{"a", 0, 100, 100}, {"b", 1, 100, 100}, {"c", 2, 100, 100}}},
		{"many unnamed", listOf(t, "http://h", 5000, nil), []TargetRow{{UnnamedRow, 0, 5000, 5000}}},
	}
	for _, tt := range tests {
		rows, rowOf, err := TargetRows(tt.targets)
		if err != nil || !slices.Equal(rows, tt.want) || len(rowOf) != len(tt.targets) {
			t.Errorf("%s: %v %v, want %v", tt.name, rows, err, tt.want)
		}
	}
	for n, want := range map[int]int{MaxRows: MaxRows, MaxRows + 1: 1} {
		if rows, _, err := TargetRows(listOf(t, "http://h", n, nil)); len(rows) != want || err != nil {
			t.Errorf("%d unnamed targets: %d rows, %v; want %d", n, len(rows), err, want)
		}
	}
	// 60 names and 500 unnamed: 61 rows, the unnamed one second.
	rows, rowOf, err := TargetRows(listOf(t, "http://h", 1000, someNamed))
	if err != nil || len(rows) != 61 || rows[1] != (TargetRow{UnnamedRow, 1, 500, 500}) || rowOf[999] != 1 || rowOf[120] != 0 {
		t.Errorf("60 names and 500 unnamed: %d rows, second %+v, %v", len(rows), rows[1], err)
	}
	hundred := listOf(t, "http://h", 201, func(i int) string { return fmt.Sprintf("n%d", i%100) })
	hundred[200].Name = ""
	if _, _, err := TargetRows(hundred); err == nil {
		t.Error("100 names and unnamed targets make 101 rows, and no error")
	}
	if _, _, err := TargetRows(listOf(t, "http://h", 101, func(i int) string { return fmt.Sprintf("n%d", i) })); err == nil {
		t.Error("101 names, and no error")
	}
}

func TestManyUnnamedTargetsShareARow(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{})
			res := runLoad(t, srv, Config{Engine: engine, Requests: 10_000, Connections: 4, Threads: 2, Pipeline: 2,
				Targets: listOf(t, srv.URL(), 5000, nil)})
			if len(res.Targets) != 1 {
				t.Fatalf("%d rows, want 1", len(res.Targets))
			}
			row := res.Targets[0]
			if row.Name != UnnamedRow || row.Requests != 10_000 || row.Members != 5000 || row.Weight != 5000 ||
				!strings.HasSuffix(row.URL, "/u/0") || row.Latency == nil {
				t.Errorf("row %+v", row)
			}
			paths := srv.Paths()
			for i := range 5000 {
				if n := paths[fmt.Sprintf("/u/%d", i)]; n != 2 {
					t.Fatalf("/u/%d had %d requests, want 2", i, n)
				}
			}
		})
	}
}

func TestNamesGroupTargetsIntoRows(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	res := runLoad(t, srv, Config{Requests: 3000, Connections: 4, Threads: 2,
		Targets: listOf(t, srv.URL(), 300, func(i int) string { return []string{"a", "b", "c"}[i%3] })})
	if len(res.Targets) != 3 {
		t.Fatalf("%d rows, want 3", len(res.Targets))
	}
	for i, row := range res.Targets {
		if row.Name != []string{"a", "b", "c"}[i] || row.Requests != 1000 || row.Members != 100 || row.Weight != 100 {
			t.Errorf("row %d = %+v", i+1, row)
		}
	}
	for path, n := range srv.Paths() {
		if n != 10 {
			t.Errorf("%s had %d requests, want 10", path, n)
		}
	}
}

// TestRowsNotTargetsKeepHistograms: a worker's recorders keep a latency
// histogram per row, however many targets share it.
func TestRowsNotTargetsKeepHistograms(t *testing.T) {
	for _, n := range []int{3, 5000, MaxTargets} {
		u, _ := url.Parse("http://127.0.0.1:1/")
		cfg := Config{URL: u, Requests: 1, Connections: 1, Threads: 1, Timeout: time.Second, Targets: listOf(t, u.String(), n, nil)}
		r, err := newRun(t.Context(), &cfg)
		if err != nil {
			t.Fatal(err)
		}
		w := NewWorker(r.phases(), false)
		r.splitTargets(w)
		r.cancel()
		want := 1 // one row, unnamed, past MaxRows
		if n <= MaxRows {
			want = n
		}
		for phase := MeasuredPhase; phase < len(w.recs); phase++ {
			if got := len(w.recs[phase].Targets()); got != want {
				t.Errorf("%d targets: %d recorders in phase %d, want %d", n, got, phase, want)
			}
		}
	}
}
