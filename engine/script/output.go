package script

import (
	"io"
	"strings"
	"sync"

	lua "github.com/yuin/gopher-lua"
)

// output is where a script's print(), io.write() and io.stdout:write() go,
// shared by all its states. Each call is one Write under the lock, so lines
// printed by threads at once do not interleave.
type output struct {
	mu sync.Mutex // guards writes to w
	w  io.Writer
}

// Write writes p to the output.
func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.w.Write(p)
}

// install replaces print, io.write and io.stdout in L with functions
// writing to o. io.write ignores io.output(file): wrk scripts use it for
// their report, not for files.
func (o *output) install(L *lua.LState) {
	L.SetGlobal("print", L.NewFunction(o.print))
	io, ok := L.GetGlobal("io").(*lua.LTable)
	if !ok {
		return
	}
	write := L.NewFunction(o.write)
	io.RawSetString("write", write)
	stdout := L.NewTable()
	methods := L.NewTable()
	methods.RawSetString("write", L.NewFunction(func(L *lua.LState) int {
		o.writeFrom(L, 2)
		L.Push(L.Get(1)) // file:write returns the file
		return 1
	}))
	methods.RawSetString("flush", L.NewFunction(func(*lua.LState) int { return 0 }))
	methods.RawSetString("setvbuf", L.NewFunction(func(*lua.LState) int { return 0 }))
	meta := L.NewTable()
	meta.RawSetString("__index", methods)
	L.SetMetatable(stdout, meta)
	io.RawSetString("stdout", stdout)
}

// print is Lua's print: arguments through tostring, tab-separated, newline.
func (o *output) print(L *lua.LState) int {
	var b strings.Builder
	for i := 1; i <= L.GetTop(); i++ {
		if i > 1 {
			b.WriteByte('\t')
		}
		b.WriteString(L.ToStringMeta(L.Get(i)).String())
	}
	b.WriteByte('\n')
	_, _ = io.WriteString(o, b.String())
	return 0
}

// write is io.write: strings and numbers, no separators.
func (o *output) write(L *lua.LState) int {
	o.writeFrom(L, 1)
	return 0
}

// writeFrom writes arguments first.. of a write call.
func (o *output) writeFrom(L *lua.LState, first int) {
	var b strings.Builder
	for i := first; i <= L.GetTop(); i++ {
		s, ok := plainString(L.Get(i))
		if !ok {
			L.ArgError(i, "string expected, got "+L.Get(i).Type().String())
		}
		b.WriteString(s)
	}
	if _, err := io.WriteString(o, b.String()); err != nil {
		L.RaiseError("io.write: %v", err)
	}
}
