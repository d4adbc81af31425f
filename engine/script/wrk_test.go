package script

import (
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// eval evaluates a Lua expression in th's running state.
func eval(t *testing.T, th *Thread, expr string) lua.LValue {
	t.Helper()
	if err := th.state.DoString("return " + expr); err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	v := th.state.Get(-1)
	th.state.Pop(1)
	return v
}

// global reads a global of th's running state as a string.
func global(th *Thread, name string) string {
	return th.state.G.Global.RawGetString(name).String()
}

func TestFormat(t *testing.T) {
	const base = "GET / HTTP/1.1\r\nUser-Agent: pummel-test\r\nHost: localhost:8080\r\n\r\n"
	tests := []struct {
		name, expr, want string
	}{
		{"defaults", "wrk.format()", base},
		{"method path body", `wrk.format("POST", "/p?q=1", nil, "hi")`,
			"POST /p?q=1 HTTP/1.1\r\nUser-Agent: pummel-test\r\nHost: localhost:8080\r\nContent-Length: 2\r\n\r\nhi"},
		// As in wrk, a headers table replaces wrk.headers (Host is copied).
		{"own headers", `wrk.format(nil, nil, {["X-A"] = "1"})`, "GET / HTTP/1.1\r\nX-A: 1\r\nHost: localhost:8080\r\n\r\n"},
		{"own host, number body", `wrk.format("PUT", "/n", {Host = "other"}, 42)`,
			"PUT /n HTTP/1.1\r\nHost: other\r\nContent-Length: 2\r\n\r\n42"},
		{"number header", `wrk.format(nil, nil, {["X-N"] = 7})`, "GET / HTTP/1.1\r\nX-N: 7\r\nHost: localhost:8080\r\n\r\n"},
		{"Content-Length removed without a body", `(function() wrk.format(nil, nil, nil, "abc"); return wrk.format() end)()`, base},
		{"false means default", `wrk.format(false, false, false, false)`, base},
		{"script-set wrk fields", `(function() wrk.method = "DELETE"; wrk.path = "/x"; return wrk.format() end)()`,
			"DELETE /x HTTP/1.1\r\nUser-Agent: pummel-test\r\nHost: localhost:8080\r\n\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ths := load(t, writeScript(t, ""), nil, 1)
			if got := eval(t, ths[0], tt.expr).String(); got != tt.want {
				t.Errorf("%s =\n%q\nwant\n%q", tt.expr, got, tt.want)
			}
		})
	}
}

func TestTarget(t *testing.T) {
	const src = `function init(args) url = args[0]; first = args[1]; host = wrk.headers.Host; port = tostring(wrk.port) end`
	tests := []struct {
		name                  string
		target                Target
		url, host, port, path string
	}{
		{"host and port", Target{Scheme: "https", Host: "example.com", Port: "8443", Path: "/a?b=c"},
			"https://example.com:8443/a?b=c", "example.com:8443", "8443", "/a?b=c"},
		{"no port", Target{Host: "example.com"}, "http://example.com/", "example.com", "nil", "/"},
		{"IPv6", Target{Host: "::1", Port: "80", Path: "/"}, "http://[::1]:80/", "[::1]:80", "80", "/"},
		{"host header from the command line", Target{Host: "10.0.0.1", Port: "80", Headers: []Header{{"host", "virt.example"}}},
			"http://10.0.0.1:80/", "virt.example", "80", "/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Load(t.Context(), writeScript(t, src), Options{Args: []string{"arg1"}, Target: tt.target})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			ths, err := p.Threads(t.Context(), 1, "")
			if err != nil {
				t.Fatal(err)
			}
			th := ths[0]
			got := []string{global(th, "url"), global(th, "first"), global(th, "host"), global(th, "port")}
			want := []string{tt.url, "arg1", tt.host, tt.port}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("url, args[1], Host, port = %q, want %q", got, want)
			}
			f, err := th.Fields()
			if err != nil {
				t.Fatal(err)
			}
			if f.Path != tt.path || f.Method != "GET" || f.Headers[len(f.Headers)-1] != (Header{"Host", tt.host}) {
				t.Errorf("Fields() = %+v", f)
			}
		})
	}
}

func TestLookupConnect(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	closed.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())

	src := fmt.Sprintf(`
local addrs = wrk.lookup("127.0.0.1", %q)
function setup(thread)
  thread.addr = addrs[1]
end
function init(args)
  first = tostring(addrs[1])
  count = #addrs
  open = wrk.connect(addrs[1])
  open_string = wrk.connect(%q)
  refused = wrk.connect(%q)
  mine = tostring(wrk.thread.addr)
  bad_service = pcall(wrk.lookup, "127.0.0.1", "no-such-service-pummel")
end`, port, ln.Addr().String(), closedAddr)
	_, ths := load(t, writeScript(t, src), nil, 1)
	th := ths[0]
	got := strings.Join([]string{global(th, "first"), global(th, "count"), global(th, "open"), global(th, "open_string"),
		global(th, "refused"), global(th, "mine"), global(th, "bad_service"), th.Addr()}, " ")
	a := ln.Addr().String()
	want := strings.Join([]string{a, "1", "true", "true", "false", a, "false", a}, " ")
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestThreadGetSet(t *testing.T) {
	const src = `
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  local cfg = {name = "t" .. #threads, list = {1, 2, 3}, on = true}
  thread:set("cfg", cfg)
  cfg.name = "changed after set" -- the thread holds a copy
  if #threads == 2 then thread.addr = "127.0.0.2:9" end
end
function init(args)
  got = cfg.name .. ":" .. cfg.list[3] .. ":" .. tostring(cfg.on)
  wrk.thread:set("own", "x") -- within the state: a plain global
  own_back = wrk.thread:get("own")
end
function done(summary, latency, requests)
  for _, thread in ipairs(threads) do
    local back = thread:get("cfg")
    print(thread:get("got"), back.list[2], thread:get("own_back"), tostring(thread.addr), thread:get("missing"))
  end
end`
	p, ths := load(t, writeScript(t, src), nil, 2)
	if ths[0].Addr() != "127.0.0.1:8080" || ths[1].Addr() != "127.0.0.2:9" {
		t.Errorf("Addr() = %s, %s", ths[0].Addr(), ths[1].Addr())
	}
	if err := p.Done(Summary{}, nil, nil); err != nil {
		t.Fatal(err)
	}
	want := "t1:3:true\t2\tx\t127.0.0.1:8080\tnil\nt2:3:true\t2\tx\t127.0.0.2:9\tnil\n"
	if printed(p) != want {
		t.Errorf("done() printed\n%q\nwant\n%q", printed(p), want)
	}
}

func TestDone(t *testing.T) {
	const src = `
function done(summary, latency, requests)
  local e = summary.errors
  print(summary.duration, summary.requests, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout)
  print(latency.min, latency.max, latency.mean, string.format("%.3f", latency.stdev), latency:percentile(99))
  local v, c = latency(2)
  print(#latency, v, c, latency(1000), latency(1001), latency(0))
  print(requests.min, requests.max, #requests, requests.nothing)
  io.write("written", " ", 1, "\n")
end`
	p, _ := load(t, writeScript(t, src), nil, 1)
	if !p.HasDone() {
		t.Fatal("HasDone() = false")
	}
	s := Summary{Duration: 2500 * time.Millisecond, Requests: 10, Bytes: 2048,
		Errors: Errors{Connect: 1, Read: 2, Write: 3, Status: 4, Timeout: 5}}
	if err := p.Done(s, latencies(), dist{10, 20}); err != nil {
		t.Fatal(err)
	}
	want := "2500000\t10\t2048\t1\t2\t3\t4\t5\n" +
		"1\t1000\t500.5\t288.675\t990\n" +
		"1000\t2\t1\t1000\tnil\tnil\n" +
		"10\t20\t2\tnil\n" +
		"written 1\n"
	if printed(p) != want {
		t.Errorf("done() printed\n%s\nwant\n%s", printed(p), want)
	}
}

func TestNoHooks(t *testing.T) {
	p, ths := load(t, writeScript(t, "wrk.path = '/static'"), nil, 1)
	th := ths[0]
	if !p.Static() || th.HasRequest() || th.WantsResponse() || th.HasDelay() || p.HasDone() {
		t.Fatal("a script without hooks is not Static")
	}
	if d, err := th.Delay(); d != 0 || err != nil {
		t.Errorf("Delay() = %v, %v", d, err)
	}
	if err := th.Response(500, nil, nil); err != nil {
		t.Error(err)
	}
	if r := one(t, th); r.Path != "/static" {
		t.Errorf("request = %+v", r)
	}
	if err := p.Done(Summary{}, nil, nil); err != nil || printed(p) != "" {
		t.Errorf("Done() = %v, printed %q", err, printed(p))
	}
}

func TestResponseArguments(t *testing.T) {
	const src = `
function response(status, headers, body)
  got = status .. " " .. headers["Content-Type"] .. " " .. headers["X-Dup"] .. " " .. body
  if status == 503 then request = nil end -- back to the built request
end
function request() return wrk.format(nil, "/dynamic") end`
	_, ths := load(t, writeScript(t, src), nil, 1)
	th := ths[0]
	h := []Header{{"Content-Type", "text/plain"}, {"X-Dup", "a"}, {"X-Dup", "b"}}
	if err := th.Response(200, h, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if got := global(th, "got"); got != "200 text/plain b hello" {
		t.Errorf("response saw %q", got)
	}
	if r := one(t, th); r.Path != "/dynamic" {
		t.Errorf("request = %+v", r)
	}
	if err := th.Response(503, h, nil); err != nil {
		t.Fatal(err)
	}
	if r := one(t, th); r.Path != "/" {
		t.Errorf("after request = nil, request = %+v, want the built one", r)
	}
}

func TestDelayValues(t *testing.T) {
	tests := []struct {
		ret  string
		want time.Duration
	}{
		{"0", 0},
		{"2.5", 2500 * time.Microsecond},
		{"'7'", 7 * time.Millisecond},
		{"-3", 0},
		{"0/0", 0},
		{"1e300", time.Duration(1<<63 - 1)},
	}
	for _, tt := range tests {
		t.Run(tt.ret, func(t *testing.T) {
			_, ths := load(t, writeScript(t, "function delay() return "+tt.ret+" end"), nil, 1)
			if d, err := ths[0].Delay(); d != tt.want || err != nil {
				t.Errorf("Delay() = %v, %v, want %v", d, err, tt.want)
			}
		})
	}
}

// TestThreadsConcurrently runs Threads on their own goroutines, as the
// engine does, so -race can see any state they share.
func TestThreadsConcurrently(t *testing.T) {
	const src = `
local n = 0
function request() n = n + 1; return wrk.format(nil, "/" .. n) end
function response(status, headers, body) seen = (seen or 0) + 1 end
function delay() return 0 end`
	p, ths := load(t, writeScript(t, src), nil, 4)
	var wg sync.WaitGroup
	errs := make(chan error, len(ths))
	for _, th := range ths {
		wg.Go(func() {
			var buf []byte
			for range 200 {
				var err error
				if buf, err = th.AppendRequest(buf[:0]); err != nil {
					errs <- err
					return
				}
				if _, err := th.Delay(); err != nil {
					errs <- err
					return
				}
				if err := th.Response(200, []Header{{"Server", "t"}}, []byte("ok")); err != nil {
					errs <- err
					return
				}
			}
			if !strings.HasPrefix(string(buf), "GET /200 ") {
				errs <- fmt.Errorf("last request %q", buf)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i, th := range ths {
		if got := global(th, "seen"); got != "200" {
			t.Errorf("thread %d saw %s responses, want 200", i, got)
		}
	}
	_ = p
}
