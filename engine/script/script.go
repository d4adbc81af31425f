// Package script runs wrk-compatible Lua scripts (the wrk 4.x scripting API)
// with gopher-lua, behind a narrow API that the engine calls.
//
// As in wrk, a script lives in several independent Lua states that share no
// Lua values:
//   - the setup state, created by [Load], runs the script's top level, then
//     setup(thread) once per thread ([Program.Threads]) and, after the run,
//     done(summary, latency, requests) ([Program.Done]);
//   - one running state per [Thread], which runs the top level again, then
//     init(args), and then delay(), request() and response() for every
//     request of that thread's connections.
//
// thread:set and thread:get copy plain values (nil, booleans, numbers,
// strings and tables of those) between the states.
//
// Concurrency: a [Program] is used by one goroutine (Load, Threads, Done,
// Close). Each [Thread] must be used by one goroutine at a time; different
// Threads may run concurrently, because each owns its Lua state. Done must
// not be called while any Thread is still in use.
package script

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

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

// Program is a loaded script: its compiled chunk, its setup state and the
// Threads made from it.
type Program struct {
	name   string             // the script path as given, used in error messages
	args   []string           // script arguments, init's args[1..]
	target Target             // normalised command-line request
	proto  *lua.FunctionProto // compiled once, shared read-only by all states

	setup   *lua.LState // setup and done state
	wrk     *lua.LTable // the setup state's wrk table
	out     printer     // where the setup state's print() writes
	threads []*Thread   // every Thread made by Threads, closed by Close
}

// Load reads and compiles the script at path and runs its top level in a
// fresh setup state. args are the script arguments (after "--"), handed to
// init as args[1..]; args[0] is the URL (rebuilt from t), as in wrk. Errors
// are one line naming the script and, when Lua knows it, the line:
// "auth.lua:12: <message>".
func Load(path string, args []string, t Target) (*Program, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading script: %w", err)
	}
	proto, err := compile(path, src)
	if err != nil {
		return nil, err
	}
	p := &Program{name: path, args: args, target: t.normalize(), proto: proto, out: printer{os.Stdout}}
	p.setup, p.wrk = p.newState(&p.out)
	if err := p.runChunk(p.setup); err != nil {
		p.setup.Close()
		return nil, err
	}
	return p, nil
}

// Threads makes n Threads, in order. For each it creates the thread's own
// running state and runs the script's top level in it, calls setup(thread)
// in the setup state (thread.addr starts as addr, "host:port"), then sets
// wrk.thread and calls init(args) in the running state. Errors are one line
// naming the script and line; on error no Thread is returned.
func (p *Program) Threads(n int, addr string) ([]*Thread, error) {
	if addr != "" {
		addrs := p.setup.NewTable()
		addrs.Append(newAddr(p.setup, addr))
		p.wrk.RawSetString("addrs", addrs)
	}
	threads := make([]*Thread, 0, n)
	for range n {
		th, err := p.newThread(addr)
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
	p.setup.Close()
}

// newThread creates one Thread: running state, top level, setup, init.
func (p *Program) newThread(addr string) (*Thread, error) {
	th := &Thread{name: p.name, addr: addr, out: printer{os.Stdout}}
	th.state, th.wrk = p.newState(&th.out)
	th.globals = th.state.G.Global
	if err := p.runChunk(th.state); err != nil {
		th.close()
		return nil, err
	}
	if err := p.callSetup(th); err != nil {
		th.close()
		return nil, err
	}
	th.wrk.RawSetString("thread", newThreadObject(th.state, th))
	if err := th.init(p.initArgs(th.state)); err != nil {
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
	return oneLine(p.name, p.setup.PCall(1, 0, nil))
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

// runChunk runs the compiled script's top level in L.
func (p *Program) runChunk(L *lua.LState) error {
	L.Push(L.NewFunctionFromProto(p.proto))
	return oneLine(p.name, L.PCall(0, 0, nil))
}

// newState makes a Lua state with the standard libraries, wrk's globals and
// print() writing to out.
func (p *Program) newState(out *printer) (*lua.LState, *lua.LTable) {
	L := lua.NewState(lua.Options{RegistryMaxSize: 1 << 20})
	registerAddr(L)
	registerThread(L)
	registerStats(L)
	w := newWrkTable(L, p.target)
	L.SetGlobal("wrk", w)
	if loaded, ok := L.GetField(L.Get(lua.RegistryIndex), "_LOADED").(*lua.LTable); ok {
		loaded.RawSetString("wrk", w) // so `local wrk = require "wrk"` works
	}
	L.SetGlobal("print", L.NewFunction(out.print))
	return L, w
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

// printer is where a state's print() writes.
type printer struct{ w io.Writer }

// print is Lua's print: arguments through tostring, tab-separated, newline.
func (pr *printer) print(L *lua.LState) int {
	var b strings.Builder
	for i := 1; i <= L.GetTop(); i++ {
		if i > 1 {
			b.WriteByte('\t')
		}
		b.WriteString(L.ToStringMeta(L.Get(i)).String())
	}
	b.WriteByte('\n')
	_, _ = io.WriteString(pr.w, b.String())
	return 0
}

// isFunction reports whether table t holds a function under name.
func isFunction(t *lua.LTable, name string) bool {
	_, ok := t.RawGetString(name).(*lua.LFunction)
	return ok
}
