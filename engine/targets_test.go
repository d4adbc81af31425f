package engine

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/stats"
)

func TestSequence(t *testing.T) {
	seq := Sequence([]int{1, 3, 6})
	if len(seq) != 10 {
		t.Fatalf("len %d", len(seq))
	}
	count := make([]int, 3)
	for _, i := range seq {
		count[i]++
	}
	if !slices.Equal(count, []int{1, 3, 6}) {
		t.Fatalf("counts %v", count)
	}
	// Smooth: the heaviest target never runs more than twice in a row here.
	if got := Sequence([]int{1, 1}); !slices.Equal(got, []uint32{0, 1}) {
		t.Fatalf("1:1 = %v", got)
	}
	if got := Sequence([]int{1, 3, 6}); strings.Contains(fmtSeq(got), "222") {
		t.Fatalf("1:3:6 = %v, not interleaved", got)
	}
}

func fmtSeq(s []uint32) string {
	b := make([]byte, len(s))
	for i, v := range s {
		b[i] = byte('0' + v)
	}
	return string(b)
}

// weightedTargets is /a, /b and /c of srv with weights 1, 3 and 6, the
// second a POST with a body.
func weightedTargets(t *testing.T, srv *fixture.Server) []Target {
	t.Helper()
	at := func(path string) *url.URL {
		u, err := url.Parse(strings.TrimSuffix(srv.URL(), "/") + path)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	return []Target{
		{Method: "GET", URL: at("/a"), Weight: 1},
		{Name: "login", Method: "POST", URL: at("/b?x=1"), Headers: []Header{{"X-Target", "b"}}, Body: []byte("hi"), Weight: 3},
		{URL: at("/c"), Weight: 6},
	}
}

// checkTargets fails unless each of the three targets' count is want's
// and the server saw as many requests for its path. With want nil (a run
// by time), the server may have seen up to abandoned more in all: the
// requests in flight when the run stopped, which are not counted.
func checkTargets(t *testing.T, srv *fixture.Server, res stats.Result, want []int64, abandoned int64) {
	t.Helper()
	paths := srv.Paths()
	if len(res.Targets) != 3 {
		t.Fatalf("%d targets in the result, want 3", len(res.Targets))
	}
	sum, unseen := int64(0), int64(0)
	for i, tr := range res.Targets {
		path := strings.TrimPrefix(tr.URL, strings.TrimSuffix(srv.URL(), "/"))
		unseen += paths[path] - tr.Requests
		if want != nil && tr.Requests != want[i] || tr.Requests > paths[path] || tr.Status["200"] != tr.Requests {
			t.Errorf("target %d (%s): %d requests, status %v; want %v, the server saw %d", i+1, path, tr.Requests, tr.Status, want, paths[path])
		}
		if tr.Requests > 0 && (tr.Latency == nil || tr.LatencyHistogram == "") {
			t.Errorf("target %d has no latency", i+1)
		}
		sum += tr.Requests
	}
	if unseen > abandoned {
		t.Errorf("the server saw %d requests more than the targets counted, want at most %d", unseen, abandoned)
	}
	if sum != res.Requests {
		t.Errorf("targets add up to %d requests, the result has %d", sum, res.Requests)
	}
}

func TestTargetsExactCountsAgreeWithTheServer(t *testing.T) {
	for _, engine := range transports() {
		for _, pipeline := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/pipeline %d", engine, pipeline), func(t *testing.T) {
				srv := fixture.New(t, fixture.Behaviour{})
				res := runLoad(t, srv, Config{Engine: engine, Requests: 10_000, Connections: 8, Threads: 2, Pipeline: pipeline,
					Targets: weightedTargets(t, srv)})
				checkTargets(t, srv, res, []int64{1000, 3000, 6000}, 0)
				got := res.Targets[1]
				if got.Name != "login" || got.Method != "POST" || got.Weight != 3 || !strings.HasSuffix(got.URL, "/b?x=1") ||
					res.Targets[2].Method != "GET" {
					t.Errorf("targets labelled %+v, %+v", got, res.Targets[2])
				}
			})
		}
	}
}

// TestAWarmupByCountLeavesTheTargetsAlike: the measured requests take the
// interleaving from its start, so -n 3 measures the same targets with
// --warmup-requests 3 as without.
func TestAWarmupByCountLeavesTheTargetsAlike(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	counts := func(warmup int64) []int64 {
		res := runLoad(t, srv, Config{Requests: 3, WarmupRequests: warmup, Connections: 1, Threads: 1, Targets: weightedTargets(t, srv)})
		var out []int64
		for _, tr := range res.Targets {
			out = append(out, tr.Requests)
		}
		return out
	}
	if without, with := counts(0), counts(3); !slices.Equal(without, with) {
		t.Errorf("-n 3 measured %v per target, with --warmup-requests 3 %v", without, with)
	}
}

func TestTargetsByTimeAndSchedule(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine+"/closed", func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{})
			res := runLoad(t, srv, Config{Engine: engine, Duration: 300 * time.Millisecond, Connections: 4, Threads: 2, Pipeline: 2,
				Targets: weightedTargets(t, srv)})
			checkTargets(t, srv, res, nil, 4*2)
		})
		t.Run(engine+"/open", func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{})
			res := runLoad(t, srv, Config{Engine: engine, Duration: 500 * time.Millisecond, Rates: []float64{400}, Connections: 4, Threads: 2,
				Targets: weightedTargets(t, srv)})
			checkTargets(t, srv, res, nil, 4)
			if a, c := res.Targets[0].Requests, res.Targets[2].Requests; a == 0 || c < 5*a {
				t.Errorf("weights 1 and 6 sent %d and %d", a, c)
			}
		})
	}
}

func TestTargetsCountTheirErrors(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{ResetAfterResponses: 3})
			res := runLoad(t, srv, Config{Engine: engine, Requests: 600, Connections: 2, Threads: 1, Pipeline: 4,
				Targets: weightedTargets(t, srv)})
			var requests, errs int64
			for _, tr := range res.Targets {
				requests += tr.Requests
				errs += tr.Errors.Total()
			}
			if res.Errors.Total() == 0 || errs != res.Errors.Total() || requests != res.Requests {
				t.Errorf("targets: %d requests, %d errors; the result: %d, %+v", requests, errs, res.Requests, res.Errors)
			}
		})
	}
}

func TestTargetsValidate(t *testing.T) {
	base, _ := url.Parse("http://127.0.0.1:8080/")
	other, _ := url.Parse("http://127.0.0.1:8081/x")
	same, _ := url.Parse("http://127.0.0.1:8080/y")
	tests := []struct {
		name    string
		targets []Target
		want    string
	}{
		{"foreign port", []Target{{URL: base, Weight: 1}, {URL: other, Weight: 1}}, "target 2 is not on"},
		{"weight", []Target{{URL: same, Weight: 0}}, "weight"},
		{"header", []Target{{URL: same, Weight: 1, Headers: []Header{{"Bad Name", "x"}}}}, "target 1"},
	}
	for _, tt := range tests {
		c := Config{URL: base, Connections: 1, Threads: 1, Requests: 1, Timeout: time.Second, Targets: tt.targets}
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want …%s…", tt.name, err, tt.want)
		}
	}
}

func TestRequestLogNamesEachLinesTarget(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{ResetAfterResponses: 3})
			l, stop := startLog(t, false)
			res := runLoad(t, srv, Config{Engine: engine, Requests: 600, Connections: 2, Threads: 1, Pipeline: 2, RequestLog: l,
				Targets: weightedTargets(t, srv)})
			lines := stop()
			perTarget := map[string]int64{}
			for _, line := range lines[1:] {
				perTarget[line[1]]++
			}
			if res.Errors.Total() == 0 {
				t.Fatalf("errors %+v: the fixture should reset some requests", res.Errors)
			}
			for i, tr := range res.Targets {
				if got, want := perTarget[strconv.Itoa(i)], tr.Requests+tr.Errors.Total(); got != want {
					t.Errorf("target %d: %d lines, want %d (%d responses, errors %+v)", i, got, want, tr.Requests, tr.Errors)
				}
			}
		})
	}
}

// TestConnectionsStartAtDifferentTargets: in a closed loop by time each
// connection walks the interleaving from its own place, so that the first
// requests of a run are not all the first target's.
func TestConnectionsStartAtDifferentTargets(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			paths := firstRequests(t, engine, 2)
			if paths["/a"] != 1 || paths["/b"] != 1 {
				t.Errorf("the first requests went to %v, want one to each target", paths)
			}
		})
	}
}

// firstRequests runs a closed loop by time over targets /a and /b with
// conns connections and returns the paths of their first requests. The
// server holds every request, so no connection sends a second, and the
// run is stopped once conns requests arrived, however long the
// connections took to send them (-d is only a bound).
func firstRequests(t *testing.T, engine string, conns int) map[string]int {
	t.Helper()
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	var mu sync.Mutex
	paths := map[string]int{}
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths[r.URL.Path]++
		if n := paths["/a"] + paths["/b"]; n == conns {
			stop()
		}
		mu.Unlock()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release) // before srv.Close, which waits for the handlers
	u, _ := url.Parse(srv.URL + "/")
	var targets []Target
	for _, p := range []string{"/a", "/b"} {
		tu := *u
		tu.Path = p
		targets = append(targets, Target{URL: &tu, Weight: 1})
	}
	if _, err := Run(ctx, Config{URL: u, Engine: engine, Connections: conns, Threads: 1, Duration: time.Minute,
		Timeout: 5 * time.Second, Targets: targets}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	return maps.Clone(paths)
}
