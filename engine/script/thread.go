package script

import (
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// Thread is one worker's running state: the script's wrk.thread. Its methods
// must not be called concurrently with each other, except Stopped, which is
// safe from any goroutine; different Threads are independent.
//
// The hooks are looked up in the state's globals on every call, as wrk does,
// so a script may replace request() or set it to nil while running (the
// request then falls back to the one built after init).
type Thread struct {
	name     string      // script path, for errors
	state    *lua.LState // the running state; only this Thread touches it
	globals  *lua.LTable // L's globals, where the hooks live
	wrk      *lua.LTable // L's wrk table
	guard    *guard      // stops L's code
	unfollow func() bool // stops guard following the context given to Threads
	addr     string      // thread.addr, "host:port"
	stopped  atomic.Bool // thread:stop() was called
	static   []byte      // wrk.format() after init: request() falls back to it
	hooks                // which hooks existed after init
	status   lua.LValue  // last status pushed to response(), reused
	statusN  int         // the number in status
}

// hooks records which optional hooks a Thread's script defined after init.
type hooks struct{ hasRequest, wantsResponse, hasDelay bool }

// HasRequest reports whether the script defined request() after init; if
// not, every request is the one [Thread.Fields] describes.
func (th *Thread) HasRequest() bool { return th.hasRequest }

// WantsResponse reports whether the script defined response() after init;
// if not, the engine need not collect headers and bodies for Lua.
func (th *Thread) WantsResponse() bool { return th.wantsResponse }

// HasDelay reports whether the script defined delay() after init.
func (th *Thread) HasDelay() bool { return th.hasDelay }

// Stopped reports whether the script called thread:stop() (in setup, init
// or any hook): the engine should stop this thread's connections.
func (th *Thread) Stopped() bool { return th.stopped.Load() }

// Addr returns thread.addr ("host:port"), which setup(thread) may change:
// the address this thread's connections should dial.
func (th *Thread) Addr() string { return th.addr }

// AppendRequest calls the script's request() and appends the string it
// returns to dst: raw bytes that may hold several pipelined requests. With
// no request() it appends the request built after init. A runtime error, or
// a result that is not a non-empty string, is an error naming the script.
//
// Every hook (AppendRequest, Delay, Response) returns [ErrStopped] once the
// context given to Threads has ended, and a [*StoppedError] when it was
// still running as it ended.
func (th *Thread) AppendRequest(dst []byte) ([]byte, error) {
	fn, ok := th.globals.RawGetString("request").(*lua.LFunction)
	if !ok {
		return append(dst, th.static...), nil
	}
	if th.guard.ended() {
		return dst, ErrStopped
	}
	L := th.state
	L.Push(fn)
	if err := L.PCall(0, 1, nil); err != nil {
		return dst, th.guard.stopped(err, th.name, "request()", true)
	}
	v := L.Get(-1)
	L.Pop(1)
	s, ok := v.(lua.LString)
	if !ok {
		return dst, fmt.Errorf("%s: request() returned %s, want a string", th.name, describe(v))
	}
	if len(s) == 0 {
		return dst, fmt.Errorf("%s: request() returned an empty string", th.name)
	}
	return append(dst, s...), nil
}

// Delay calls the script's delay() and returns how long to wait before the
// next request; delay() returns milliseconds. Without delay() it returns 0.
func (th *Thread) Delay() (time.Duration, error) {
	fn, ok := th.globals.RawGetString("delay").(*lua.LFunction)
	if !ok {
		return 0, nil
	}
	if th.guard.ended() {
		return 0, ErrStopped
	}
	L := th.state
	L.Push(fn)
	if err := L.PCall(0, 1, nil); err != nil {
		return 0, th.guard.stopped(err, th.name, "delay()", true)
	}
	v := L.Get(-1)
	L.Pop(1)
	ms, ok := toNumber(v)
	if !ok {
		return 0, fmt.Errorf("%s: delay() returned %s, want a number of milliseconds", th.name, describe(v))
	}
	return millis(ms), nil
}

// Response calls the script's response(status, headers, body), if defined.
// headers reach Lua as a table of name → value (a repeated name keeps its
// last value) and body as a string.
func (th *Thread) Response(status int, headers []Header, body []byte) error {
	fn, ok := th.globals.RawGetString("response").(*lua.LFunction)
	if !ok {
		return nil
	}
	if th.guard.ended() {
		return ErrStopped
	}
	L := th.state
	L.Push(fn)
	L.Push(th.statusValue(status))
	t := L.CreateTable(0, len(headers))
	for _, h := range headers {
		t.RawSetString(h.Name, lua.LString(h.Value))
	}
	L.Push(t)
	L.Push(lua.LString(body))
	return th.guard.stopped(L.PCall(3, 0, nil), th.name, "response()", true)
}

// Fields returns wrk.method, wrk.path, wrk.headers (in table order) and
// wrk.body, and wrk.scheme/host/port, as the script left them after init,
// for the engine to serialise once. The headers include the Host header init
// adds when the script set none, and leave out Content-Length, which follows
// from Body (wrk.format sets or removes it the same way). A field of the
// wrong type is an error naming it.
func (th *Thread) Fields() (Target, error) {
	var t Target
	var err error
	str := func(name string, dst *string) {
		if err == nil {
			*dst, err = th.field(name)
		}
	}
	str("scheme", &t.Scheme)
	str("host", &t.Host)
	str("port", &t.Port)
	str("method", &t.Method)
	str("path", &t.Path)
	var body string
	str("body", &body)
	if err != nil {
		return Target{}, err
	}
	if th.wrk.RawGetString("body") != lua.LNil {
		t.Body = []byte(body)
	}
	headers, ok := th.wrk.RawGetString("headers").(*lua.LTable)
	if !ok {
		return Target{}, fmt.Errorf("%s: wrk.headers is %s, want a table", th.name, describe(th.wrk.RawGetString("headers")))
	}
	err = eachHeader(headers, func(name, value string) {
		if !strings.EqualFold(name, "Content-Length") {
			t.Headers = append(t.Headers, Header{name, value})
		}
	})
	if err != nil {
		return Target{}, fmt.Errorf("%s: wrk.headers: %w", th.name, err)
	}
	return t, nil
}

// field reads wrk[name] as a string; nil reads as "".
func (th *Thread) field(name string) (string, error) {
	switch v := th.wrk.RawGetString(name).(type) {
	case *lua.LNilType:
		return "", nil
	case lua.LString, lua.LNumber:
		return v.String(), nil
	default:
		return "", fmt.Errorf("%s: wrk.%s is %s, want a string", th.name, name, describe(v))
	}
}

// init adds the Host header, runs init(args), builds the fallback request
// and records which hooks exist.
func (th *Thread) init(args *lua.LTable) error {
	if headers, ok := th.wrk.RawGetString("headers").(*lua.LTable); ok && headers.RawGetString("Host") == lua.LNil {
		headers.RawSetString("Host", lua.LString(hostHeader(th.wrk)))
	}
	if fn, ok := th.globals.RawGetString("init").(*lua.LFunction); ok {
		th.state.Push(fn)
		th.state.Push(args)
		if err := th.state.PCall(1, 0, nil); err != nil {
			return th.guard.stopped(err, th.name, "init()", false)
		}
	}
	th.state.Push(th.wrk.RawGetString("format"))
	if err := th.state.PCall(0, 1, nil); err != nil {
		return th.guard.stopped(err, th.name, "wrk.format()", false)
	}
	req := th.state.Get(-1)
	th.state.Pop(1)
	th.static = []byte(req.String())
	th.wrk.RawSetString("request", th.state.NewFunction(func(L *lua.LState) int {
		L.Push(req)
		return 1
	}))
	th.hasRequest = isFunction(th.globals, "request")
	th.wantsResponse = isFunction(th.globals, "response")
	th.hasDelay = isFunction(th.globals, "delay")
	return nil
}

// statusValue returns status as a Lua value, reusing the last one: boxing a
// number allocates, and most responses share one status.
func (th *Thread) statusValue(status int) lua.LValue {
	if th.status == nil || th.statusN != status {
		th.status, th.statusN = lua.LNumber(status), status
	}
	return th.status
}

// close releases the running state.
func (th *Thread) close() {
	if th.state != nil {
		th.unfollow()
		th.guard.close()
		th.state.Close()
		th.state = nil
	}
}

// toNumber converts a number or numeric string, as Lua's tonumber.
func toNumber(v lua.LValue) (float64, bool) {
	switch v := v.(type) {
	case lua.LNumber:
		return float64(v), true
	case lua.LString:
		if n, err := parseNumber(string(v)); err == nil {
			return n, true
		}
	}
	return 0, false
}

// millis converts milliseconds to a Duration, clamping negatives and NaN to
// zero and huge values to the largest Duration.
func millis(ms float64) time.Duration {
	switch {
	case !(ms > 0):
		return 0
	case ms >= float64(math.MaxInt64)/float64(time.Millisecond):
		return math.MaxInt64
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// describe names a value's type with an article, for error messages.
func describe(v lua.LValue) string {
	if v == lua.LNil {
		return "nil"
	}
	return "a " + v.Type().String()
}
