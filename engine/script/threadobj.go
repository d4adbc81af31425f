package script

import (
	"errors"
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

const threadType = "wrk.thread"

// maxCopyDepth bounds nested tables copied by thread:get/set (and catches
// cycles).
const maxCopyDepth = 32

// registerThread installs the thread objects' metatable in L: the field
// addr (read and write) and the methods get, set and stop.
func registerThread(L *lua.LState) {
	methods := L.SetFuncs(L.NewTable(), map[string]lua.LGFunction{
		"get":  threadGet,
		"set":  threadSet,
		"stop": threadStop,
	})
	mt := L.NewTypeMetatable(threadType)
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		th, key := checkThread(L), L.CheckString(2)
		switch {
		case key == "addr" && th.addr != "":
			L.Push(newAddr(L, th.addr))
		case key == "addr":
			L.Push(lua.LNil)
		default:
			L.Push(methods.RawGetString(key))
		}
		return 1
	}))
	mt.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		th, key := checkThread(L), L.CheckString(2)
		if key != "addr" {
			L.RaiseError("cannot set '%s' on a thread (only addr)", key)
		}
		addr, ok := toAddr(L.Get(3))
		if !ok {
			L.RaiseError("thread.addr must be an address from wrk.lookup or a \"host:port\" string, not %s", describe(L.Get(3)))
		}
		th.addr = addr
		return 0
	}))
	mt.RawSetString("__tostring", L.NewFunction(func(L *lua.LState) int {
		L.Push(lua.LString(fmt.Sprintf("thread: %p", checkThread(L))))
		return 1
	}))
}

// newThreadObject makes a thread object in L for th. The setup state and
// th's own running state each hold one; both reach the same Thread, never
// at the same time.
func newThreadObject(L *lua.LState, th *Thread) *lua.LUserData {
	ud := L.NewUserData()
	ud.Value = th
	ud.Metatable = L.GetTypeMetatable(threadType)
	return ud
}

// checkThread returns argument 1 as a Thread.
func checkThread(L *lua.LState) *Thread {
	if ud, ok := L.Get(1).(*lua.LUserData); ok {
		if th, ok := ud.Value.(*Thread); ok && th.state != nil {
			return th
		}
	}
	L.ArgError(1, "thread expected (call methods as thread:get, not thread.get)")
	return nil
}

// threadGet is thread:get(name): the thread's global name, copied into the
// calling state.
func threadGet(L *lua.LState) int {
	th, name := checkThread(L), L.CheckString(2)
	v := th.state.G.Global.RawGetString(name)
	if L != th.state {
		var err error
		if v, err = copyValue(v, 0); err != nil {
			L.RaiseError("thread:get(%q): %v", name, err)
		}
	}
	L.Push(v)
	return 1
}

// threadSet is thread:set(name, value): sets the thread's global name to a
// copy of value.
func threadSet(L *lua.LState) int {
	th, name := checkThread(L), L.CheckString(2)
	v := L.Get(3)
	if L != th.state {
		var err error
		if v, err = copyValue(v, 0); err != nil {
			L.RaiseError("thread:set(%q): %v", name, err)
		}
	}
	th.state.G.Global.RawSetString(name, v)
	return 0
}

// threadStop is thread:stop(): asks the engine to stop the thread.
func threadStop(L *lua.LState) int {
	checkThread(L).stopped.Store(true)
	return 0
}

// errDeep reports a table nested too deeply to copy, usually a cycle.
var errDeep = errors.New("table nested too deeply (a cycle?)")

// copyValue copies v for another state: nil, booleans, numbers and strings
// are immutable and shared; tables are copied deeply; anything else is an
// error, as in wrk.
func copyValue(v lua.LValue, depth int) (lua.LValue, error) {
	switch v := v.(type) {
	case *lua.LNilType, lua.LBool, lua.LNumber, lua.LString:
		return v, nil
	case *lua.LTable:
		if depth >= maxCopyDepth {
			return nil, errDeep
		}
		return copyTable(v, depth+1)
	}
	return nil, fmt.Errorf("cannot copy %s between threads", describe(v))
}

// copyTable copies t's keys and values with copyValue.
func copyTable(t *lua.LTable, depth int) (*lua.LTable, error) {
	c := &lua.LTable{Metatable: lua.LNil}
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		ck, err := copyValue(k, depth)
		if err != nil {
			return nil, err
		}
		cv, err := copyValue(v, depth)
		if err != nil {
			return nil, err
		}
		c.RawSet(ck, cv)
	}
	return c, nil
}
