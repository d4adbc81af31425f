package script

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// target is the command line every test script sees.
var target = Target{
	Scheme:  "http",
	Host:    "localhost",
	Port:    "8080",
	Path:    "/",
	Headers: []Header{{"User-Agent", "pummel-test"}},
}

// examples is where the example scripts live.
const examples = "../../scripts/lua"

// load loads path and makes n threads, closing them when the test ends.
func load(t *testing.T, path string, args []string, n int) (*Program, []*Thread) {
	t.Helper()
	p, err := Load(context.Background(), path, Options{Args: args, Target: target, Output: &bytes.Buffer{}})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	t.Cleanup(p.Close)
	ths, err := p.Threads(context.Background(), n, "127.0.0.1:8080")
	if err != nil {
		t.Fatalf("Threads: %v", err)
	}
	return p, ths
}

// writeScript writes src to a fresh bad.lua and returns its path.
func writeScript(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bad.lua")
	if err := writeFile(path, src); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeFile writes a script file.
func writeFile(path, src string) error { return os.WriteFile(path, []byte(src), 0o644) }

// sent is one request as a server would read it.
type sent struct {
	Method, Path, Host, Body string
	Header                   http.Header
}

// parseRequests reads every request in raw, as a server reading a
// pipelined stream would, and fails on trailing garbage.
func parseRequests(t *testing.T, raw []byte) []sent {
	t.Helper()
	r := bufio.NewReader(bytes.NewReader(raw))
	var out []sent
	for {
		if _, err := r.Peek(1); err == io.EOF {
			return out
		}
		req, err := http.ReadRequest(r)
		if err != nil {
			t.Fatalf("request %d of %q: %v", len(out)+1, raw, err)
		}
		body, err := io.ReadAll(req.Body)
		if err != nil {
			t.Fatalf("request %d body: %v", len(out)+1, err)
		}
		out = append(out, sent{req.Method, req.URL.RequestURI(), req.Host, string(body), req.Header})
	}
}

// next calls request() once and parses what it returned.
func next(t *testing.T, th *Thread) []sent {
	t.Helper()
	raw, err := th.AppendRequest(nil)
	if err != nil {
		t.Fatalf("AppendRequest: %v", err)
	}
	return parseRequests(t, raw)
}

// one calls request() and wants exactly one request back.
func one(t *testing.T, th *Thread) sent {
	t.Helper()
	reqs := next(t, th)
	if len(reqs) != 1 {
		t.Fatalf("request() returned %d requests, want 1", len(reqs))
	}
	return reqs[0]
}

// dist is a Distribution of distinct sorted values, each recorded once.
type dist []float64

func (d dist) Min() float64 { return d[0] }
func (d dist) Max() float64 { return d[len(d)-1] }
func (d dist) Len() int     { return len(d) }
func (d dist) At(i int) (float64, int64) {
	return d[i], 1
}
func (d dist) Mean() float64 {
	var sum float64
	for _, v := range d {
		sum += v
	}
	return sum / float64(len(d))
}
func (d dist) Stdev() float64 {
	m, sum := d.Mean(), 0.0
	for _, v := range d {
		sum += (v - m) * (v - m)
	}
	return math.Sqrt(sum / float64(len(d)))
}
func (d dist) Percentile(p float64) float64 {
	i := int(math.Ceil(p/100*float64(len(d))-1e-9)) - 1
	return d[max(i, 0)]
}

// latencies is 1..1000 µs.
func latencies() dist {
	d := make(dist, 1000)
	for i := range d {
		d[i] = float64(i + 1)
	}
	return d
}

func TestExampleScripts(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		threads int
		check   func(t *testing.T, p *Program, ths []*Thread)
	}{
		{"post.lua", nil, 2, checkPost},
		{"counter.lua", nil, 2, checkCounter},
		{"auth.lua", []string{"alice:pw"}, 1, checkAuth},
		{"delay.lua", nil, 1, checkDelay},
		{"pipeline.lua", []string{"4"}, 1, checkPipeline},
		{"report.lua", nil, 1, checkReport},
		{"setup.lua", nil, 3, checkSetup},
		{"stop.lua", []string{"3"}, 2, checkStop},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ths := load(t, filepath.Join(examples, tt.name), tt.args, tt.threads)
			tt.check(t, p, ths)
		})
	}
}

func checkPost(t *testing.T, p *Program, ths []*Thread) {
	if !p.Static() {
		t.Fatal("Static() = false for a script that only sets wrk fields")
	}
	f, err := ths[0].Fields()
	if err != nil {
		t.Fatal(err)
	}
	want := []Header{{"User-Agent", "pummel-test"}, {"Content-Type", "application/json"}, {"Host", "localhost:8080"}}
	if f.Method != "POST" || f.Path != "/" || string(f.Body) != `{"name":"pummel","count":3}` || fmt.Sprint(f.Headers) != fmt.Sprint(want) {
		t.Errorf("Fields() = %+v", f)
	}
	for range 3 { // the request built once, sent every time
		r := one(t, ths[1])
		if r.Method != "POST" || r.Host != "localhost:8080" || r.Body != `{"name":"pummel","count":3}` ||
			r.Header.Get("Content-Type") != "application/json" || r.Header.Get("Content-Length") != "27" {
			t.Errorf("request = %+v", r)
		}
	}
}

func checkCounter(t *testing.T, p *Program, ths []*Thread) {
	if p.Static() || !ths[0].HasRequest() || ths[0].WantsResponse() || ths[0].HasDelay() {
		t.Fatalf("hooks: static %v request %v response %v delay %v",
			p.Static(), ths[0].HasRequest(), ths[0].WantsResponse(), ths[0].HasDelay())
	}
	for _, th := range ths { // each thread counts on its own
		var paths []string
		for range 3 {
			r := one(t, th)
			paths = append(paths, r.Path)
			if r.Method != "GET" || r.Header.Get("User-Agent") != "pummel-test" || r.Body != "" {
				t.Errorf("request = %+v", r)
			}
		}
		if got := strings.Join(paths, " "); got != "/1 /2 /3" {
			t.Errorf("paths = %s, want /1 /2 /3", got)
		}
	}
}

func checkAuth(t *testing.T, _ *Program, ths []*Thread) {
	th := ths[0]
	login := one(t, th)
	if login.Method != "POST" || login.Path != "/login" || login.Body != "alice:pw" || login.Header.Get("Authorization") != "" {
		t.Fatalf("login = %+v", login)
	}
	if err := th.Response(401, []Header{{"X-Auth-Token", "ignored"}}, []byte("no")); err != nil {
		t.Fatal(err)
	}
	if r := one(t, th); r.Path != "/login" {
		t.Fatalf("after a 401 the script should log in again, sent %s", r.Path)
	}
	if err := th.Response(200, []Header{{"Content-Type", "text/plain"}, {"X-Auth-Token", "tok123"}}, []byte("ok")); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		r := one(t, th)
		if r.Method != "GET" || r.Path != "/" || r.Body != "" || r.Header.Get("Authorization") != "Bearer tok123" || r.Header.Get("Content-Length") != "" {
			t.Errorf("authenticated request = %+v", r)
		}
	}
}

func checkDelay(t *testing.T, p *Program, ths []*Thread) {
	if p.Static() || !ths[0].HasDelay() || ths[0].HasRequest() {
		t.Fatal("delay.lua: want HasDelay and not HasRequest")
	}
	seen := map[time.Duration]bool{}
	for range 200 {
		d, err := ths[0].Delay()
		if err != nil {
			t.Fatal(err)
		}
		if d < time.Millisecond || d > 5*time.Millisecond || d%time.Millisecond != 0 {
			t.Fatalf("Delay() = %v, want whole ms in [1ms, 5ms]", d)
		}
		seen[d] = true
	}
	if len(seen) < 3 {
		t.Errorf("200 delays took only %d values, want random ones", len(seen))
	}
	if r := one(t, ths[0]); r.Path != "/" || r.Method != "GET" {
		t.Errorf("request = %+v", r)
	}
}

func checkPipeline(t *testing.T, _ *Program, ths []*Thread) {
	for range 2 {
		reqs := next(t, ths[0])
		if len(reqs) != 4 {
			t.Fatalf("request() holds %d requests, want 4 pipelined", len(reqs))
		}
		for _, r := range reqs {
			if r.Method != "GET" || r.Path != "/" || r.Host != "localhost:8080" {
				t.Errorf("pipelined request = %+v", r)
			}
		}
	}
}

func checkReport(t *testing.T, p *Program, _ []*Thread) {
	path := filepath.Join(t.TempDir(), "p.csv")
	t.Setenv("PUMMEL_CSV", path)
	sum := Summary{Duration: time.Second, Requests: 1000}
	if err := p.Done(sum, latencies(), dist{100}); err != nil {
		t.Fatal(err)
	}
	csv, err := os.ReadFile(path)
	want := "percentile,latency_us\n50,500\n75,750\n90,900\n99,990\n99.9,999\n"
	if err != nil || string(csv) != want || printed(p) != "latency percentiles written to "+path+"\n" {
		t.Errorf("done() wrote %q (%v) and printed %q; want the CSV\n%s", csv, err, printed(p), want)
	}
}

func checkSetup(t *testing.T, p *Program, ths []*Thread) {
	for i, th := range ths {
		for range i + 1 { // thread i sends i+1 requests
			if r := one(t, th); r.Path != fmt.Sprintf("/thread/%d", i+1) {
				t.Errorf("thread %d sent %s", i+1, r.Path)
			}
		}
	}
	if err := p.Done(Summary{}, latencies(), dist{1}); err != nil {
		t.Fatal(err)
	}
	want := "thread 1: 1 requests\nthread 2: 2 requests\nthread 3: 3 requests\n"
	if printed(p) != want {
		t.Errorf("done() printed\n%s\nwant\n%s", printed(p), want)
	}
}

func checkStop(t *testing.T, p *Program, ths []*Thread) {
	if !ths[0].WantsResponse() || ths[0].HasRequest() || p.Static() {
		t.Fatal("stop.lua: want WantsResponse only")
	}
	for i := 1; i <= 3; i++ {
		if ths[0].Stopped() {
			t.Fatalf("stopped after %d responses, want 3", i-1)
		}
		if err := ths[0].Response(200, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if !ths[0].Stopped() {
		t.Error("not stopped after 3 responses")
	}
	if ths[1].Stopped() {
		t.Error("stopping thread 1 stopped thread 2")
	}
}

// printed returns what p's states printed so far, for a Program made by load.
func printed(p *Program) string { return p.out.w.(*bytes.Buffer).String() }
