// Package script runs wrk-compatible Lua scripts (the wrk 4.x scripting API)
// with gopher-lua, behind a narrow API that the engine calls.
//
// As in wrk, a script lives in several independent Lua states that share no
// Lua values:
//   - the setup state, created by [Load], runs the script's top level, then
//     setup(thread) once per thread ([Program.Threads]) and, after the last
//     run, done(summary, latency, requests) ([Program.Finish]: the result's
//     totals and the latency histograms the engine handed over after each
//     run, [Program.AddLatencies]);
//   - one running state per [Thread], which runs the top level again, then
//     init(args), and then delay(), request() and response() for every
//     request of that thread's connections.
//
// thread:set and thread:get copy plain values (nil, booleans, numbers,
// strings and tables of those) between the states.
//
// No script holds pummel hostage: the parts that run once (top level,
// setup, init, done) are stopped after [OnceLimit] (those before a run
// with a length, within that length: [Options.Limit]) or when the context
// given to Load or Threads ends, and a Thread's hooks are stopped when the
// context given to Threads ends. What the script prints goes to
// [Options.Output].
//
// It never sends a request itself or reads a flag: the engine calls its
// hooks, and the command line loads the script and runs done().
//
// Concurrency: a [Program] is used by one goroutine (Load, Threads,
// AddLatencies, Finish or Done, Close). Each [Thread] must be used by one goroutine at a time; different
// Threads may run concurrently, because each owns its Lua state. Done must
// not be called while any Thread is still in use.
package script

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// Target is the request the command line describes. The script sees it as
// wrk.scheme, wrk.host, wrk.port, wrk.path, wrk.method, wrk.headers and
// wrk.body, and wrk.shard, before its top level runs.
type Target struct {
	Scheme  string   // "http" or "https"
	Host    string   // host name or IP address, without brackets
	Port    string   // "" when the URL names none (wrk.port is then nil)
	Path    string   // path and query; "" means "/"
	Method  string   // "" means "GET"
	Headers []Header // in command-line order; a "host" header in any case becomes wrk.headers.Host
	Body    []byte   // nil leaves wrk.body nil
	// ShardIndex and ShardCount are the part of a sharded load this
	// process runs, wrk.shard.index and wrk.shard.count (0 and 1 for the
	// whole load; a count of 0 means 1).
	ShardIndex, ShardCount int
}

// Header is one HTTP header field.
type Header struct{ Name, Value string }

// Options are what Load needs besides the script's path.
type Options struct {
	// Args are the script arguments (after "--"), handed to init as
	// args[1..]; args[0] is the URL, rebuilt from Target, as in wrk.
	Args   []string
	Target Target // the request the command line describes
	// Output receives what the script's print(), io.write() and
	// io.stdout:write() write, from every state; nil means os.Stdout.
	Output io.Writer
	// Limit, when positive and shorter than [OnceLimit], is the run's
	// own bound (its length and --timeout): Load's top level and all that
	// the first [Program.Threads] call runs (every thread's top level,
	// setup() and init()) may together run that long, as may all that
	// each later call runs, so that a script cannot hold a run past it.
	// 0 leaves each part OnceLimit.
	Limit time.Duration
}

// Program is a loaded script: its compiled chunk, its setup state and the
// Threads made from it.
type Program struct {
	name   string             // the script path as given, used in error messages
	sum    [sha256.Size]byte  // SHA-256 of the script's source
	args   []string           // script arguments, init's args[1..]
	target Target             // normalised command-line request
	proto  *lua.FunctionProto // compiled once, shared read-only by all states
	limit  time.Duration      // how long a part that runs once may run: OnceLimit
	budget time.Duration      // Options.Limit
	// spent is how long Load's top level took, charged to the budget of
	// the first Threads call: the budget bounds them together.
	spent time.Duration

	setup   *lua.LState // setup and done state
	guard   *guard      // stops the setup state's code
	wrk     *lua.LTable // the setup state's wrk table
	out     *output     // where every state's print() writes
	threads []*Thread   // every Thread made by Threads, closed by Close

	// latencies is done()'s latency argument, the runs' merged: see
	// AddLatencies.
	latencies *hdrhistogram.Histogram
}

// Load reads and compiles the script at path and runs its top level in a
// fresh setup state, stopping it when ctx ends or after [OnceLimit] (or
// [Options.Limit]). Errors
// are one line naming the script and, when Lua knows it, the line:
// "auth.lua:12: <message>"; a top level that was stopped is a
// [*StoppedError].
func Load(ctx context.Context, path string, o Options) (*Program, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading script: %w", err)
	}
	proto, err := compile(path, src)
	if err != nil {
		return nil, err
	}
	if o.Output == nil {
		o.Output = os.Stdout
	}
	p := &Program{name: path, args: o.Args, target: o.Target.normalize(), proto: proto, out: &output{w: o.Output}, limit: OnceLimit, budget: o.Limit, sum: sha256.Sum256(src)}
	p.setup, p.guard, p.wrk = p.newState()
	start := time.Now()
	if err := p.guard.once(ctx, stage(p.limit, p.budget), func() error { return p.runChunk(p.setup, p.guard) }); err != nil {
		p.guard.close()
		p.setup.Close()
		return nil, err
	}
	p.spent = time.Since(start)
	return p, nil
}

// Threads makes n Threads, in order. For each it creates the thread's own
// running state and runs the script's top level in it, calls setup(thread)
// in the setup state (thread.addr starts as addr, "host:port"), then sets
// wrk.thread and calls init(args) in the running state. The top level,
// setup and init are each stopped after [OnceLimit], or, with Load's top
// level for the first call, all together after [Options.Limit]; all of
// them, and the
// Threads' hooks for as long as they live, are stopped when ctx ends.
// Errors are one line naming the script and line (a [*StoppedError] for
// code that was stopped); on error no Thread is returned.
func (p *Program) Threads(ctx context.Context, n int, addr string) ([]*Thread, error) {
	if addr != "" {
		addrs := p.setup.NewTable()
		addrs.Append(newAddr(p.setup, addr))
		p.wrk.RawSetString("addrs", addrs)
	}
	threads := make([]*Thread, 0, n)
	b := stage(p.limit, p.budget).less(p.spent)
	p.spent = 0
	for range n {
		th, err := p.newThread(ctx, b, addr)
		if err != nil {
			for _, t := range threads {
				t.close()
			}
			return nil, err
		}
		threads = append(threads, th)
	}
	p.threads = append(p.threads, threads...)
	return threads, nil
}

// Name is the script's file name, without its directory: what a result
// records of it, free of local paths.
func (p *Program) Name() string { return filepath.Base(p.name) }

// SHA256 is the hex SHA-256 of the script's source.
func (p *Program) SHA256() string { return hex.EncodeToString(p.sum[:]) }

// WriteInputs writes to h what the requests the script makes depend on,
// besides the request the command line describes: its source's digest and
// its arguments. Its shard (wrk.shard) is left out: every part of a sharded
// load writes the same.
func (p *Program) WriteInputs(h hash.Hash) {
	h.Write(p.sum[:])
	for _, a := range p.args {
		fmt.Fprintf(h, "%d:%s", len(a), a)
	}
}

// Static reports whether no Thread defines request(), response() or delay()
// after init, so the engine may build the request once from
// [Thread.Fields] and never call into Lua while running. Before Threads is
// called it answers for the setup state's globals.
func (p *Program) Static() bool {
	if len(p.threads) == 0 {
		g := p.setup.G.Global
		return !isFunction(g, "request") && !isFunction(g, "response") && !isFunction(g, "delay")
	}
	for _, th := range p.threads {
		if th.hasRequest || th.wantsResponse || th.hasDelay {
			return false
		}
	}
	return true
}

// Close releases every Lua state of the Program and its Threads. It must not
// be called while a Thread is in use.
func (p *Program) Close() {
	for _, th := range p.threads {
		th.close()
	}
	p.threads = nil
	p.guard.close()
	p.setup.Close()
}

// newThread creates one Thread, stopped when ctx ends: running state, top
// level, setup, init, each within b.
func (p *Program) newThread(ctx context.Context, b bound, addr string) (*Thread, error) {
	th := &Thread{name: p.name, addr: addr}
	th.state, th.guard, th.wrk = p.newState()
	th.unfollow = th.guard.follow(ctx)
	th.globals = th.state.G.Global
	err := th.guard.once(ctx, b, func() error { return p.runChunk(th.state, th.guard) })
	if err == nil {
		err = p.guard.once(ctx, b, func() error { return p.callSetup(th) })
	}
	if err == nil {
		th.wrk.RawSetString("thread", newThreadObject(th.state, th))
		err = th.guard.once(ctx, b, func() error { return th.init(p.initArgs(th.state)) })
	}
	if err != nil {
		th.close()
		return nil, err
	}
	return th, nil
}

// callSetup runs the script's setup(thread), if any, in the setup state.
func (p *Program) callSetup(th *Thread) error {
	fn, ok := p.setup.G.Global.RawGetString("setup").(*lua.LFunction)
	if !ok {
		return nil
	}
	p.setup.Push(fn)
	p.setup.Push(newThreadObject(p.setup, th))
	return p.guard.stopped(p.setup.PCall(1, 0, nil), p.name, "setup()", false)
}

// initArgs builds init's argument table: [0] the URL, then the script args.
func (p *Program) initArgs(L *lua.LState) *lua.LTable {
	args := L.CreateTable(len(p.args), 1)
	args.RawSetInt(0, lua.LString(p.target.url()))
	for i, a := range p.args {
		args.RawSetInt(i+1, lua.LString(a))
	}
	return args
}

// runChunk runs the compiled script's top level in L, which g guards.
func (p *Program) runChunk(L *lua.LState, g *guard) error {
	L.Push(L.NewFunctionFromProto(p.proto))
	return g.stopped(L.PCall(0, 0, nil), p.name, "the top level", false)
}

// newState makes a Lua state with the standard libraries, wrk's globals,
// print() and io.write() writing to the program's output, and a guard.
func (p *Program) newState() (*lua.LState, *guard, *lua.LTable) {
	L := lua.NewState(lua.Options{RegistryMaxSize: 1 << 20})
	g := newGuard(L)
	registerAddr(L)
	registerThread(L)
	registerStats(L)
	w := newWrkTable(L, p.target)
	L.SetGlobal("wrk", w)
	if loaded, ok := L.GetField(L.Get(lua.RegistryIndex), "_LOADED").(*lua.LTable); ok {
		loaded.RawSetString("wrk", w) // so `local wrk = require "wrk"` works
	}
	p.out.install(L)
	return L, g, w
}

// compile parses and compiles the script once; every state runs the result.
func compile(name string, src []byte) (*lua.FunctionProto, error) {
	if bytes.HasPrefix(src, []byte("#")) { // skip a "#!" line, as lua does, keeping line numbers
		end := bytes.IndexByte(src, '\n')
		if end < 0 {
			end = len(src)
		}
		src = append(bytes.Repeat([]byte(" "), end), src[end:]...)
	}
	chunk, err := parse.Parse(bytes.NewReader(src), name)
	if err != nil {
		return nil, syntaxError(name, err)
	}
	proto, err := lua.Compile(chunk, name)
	if err != nil {
		return nil, syntaxError(name, err)
	}
	return proto, nil
}

// NewTarget is the Target of a request to u, with the default port of
// u's scheme when u names none.
func NewTarget(u *url.URL, method string, headers []Header, body []byte) Target {
	t := Target{Scheme: u.Scheme, Host: u.Hostname(), Port: u.Port(), Path: u.RequestURI(), Method: method, Headers: headers, Body: body}
	if t.Port == "" {
		t.Port = map[string]string{"http": "80", "https": "443"}[t.Scheme]
	}
	return t
}

// normalize fills wrk's defaults.
func (t Target) normalize() Target {
	if t.Scheme == "" {
		t.Scheme = "http"
	}
	if t.Method == "" {
		t.Method = "GET"
	}
	if t.Path == "" {
		t.Path = "/"
	}
	return t
}

// url rebuilds the target URL for init's args[0].
func (t Target) url() string {
	host := t.Host
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if t.Port != "" {
		host = net.JoinHostPort(t.Host, t.Port)
	}
	return t.Scheme + "://" + host + t.Path
}

// isFunction reports whether table t holds a function under name.
func isFunction(t *lua.LTable, name string) bool {
	_, ok := t.RawGetString(name).(*lua.LFunction)
	return ok
}
