package script

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	lua "github.com/yuin/gopher-lua"
)

const (
	lookupTimeout  = 5 * time.Second // wrk.lookup's whole resolution
	connectTimeout = time.Second     // wrk.connect's dial
)

// newWrkTable builds the global wrk table of one state from the target:
// scheme, host, port, method, path, headers, body, shard, and the functions
// format, lookup and connect.
func newWrkTable(L *lua.LState, t Target) *lua.LTable {
	w := L.CreateTable(0, 16)
	w.RawSetString("scheme", lua.LString(t.Scheme))
	w.RawSetString("host", lua.LString(t.Host))
	if t.Port != "" {
		w.RawSetString("port", lua.LString(t.Port))
	}
	w.RawSetString("method", lua.LString(t.Method))
	w.RawSetString("path", lua.LString(t.Path))
	headers := L.CreateTable(0, len(t.Headers)+2)
	for _, h := range t.Headers {
		name := h.Name
		if strings.EqualFold(name, "Host") {
			name = "Host" // the spelling wrk.format and init look for
		}
		headers.RawSetString(name, lua.LString(h.Value))
	}
	w.RawSetString("headers", headers)
	if t.Body != nil {
		w.RawSetString("body", lua.LString(t.Body))
	}
	shard := L.CreateTable(0, 2)
	shard.RawSetString("index", lua.LNumber(t.ShardIndex))
	shard.RawSetString("count", lua.LNumber(max(t.ShardCount, 1)))
	w.RawSetString("shard", shard)
	w.RawSetString("format", L.NewFunction(formatter(w)))
	w.RawSetString("lookup", L.NewFunction(lookup))
	w.RawSetString("connect", L.NewFunction(connect))
	return w
}

// formatter returns wrk.format(method, path, headers, body) for the state
// owning w. Like wrk it defaults each argument to the wrk table's field,
// copies wrk.headers.Host into headers when missing, sets (or, without a
// body, removes) headers["Content-Length"] in the table it was given, and
// writes the headers in table order.
func formatter(w *lua.LTable) lua.LGFunction {
	var buf []byte // scratch, reused: a state runs on one goroutine at a time
	return func(L *lua.LState) int {
		method := orField(L, 1, w, "method")
		path := orField(L, 2, w, "path")
		headers, ok := orField(L, 3, w, "headers").(*lua.LTable)
		if !ok {
			L.ArgError(3, "headers must be a table")
		}
		body := orField(L, 4, w, "body")
		if headers.RawGetString("Host") == lua.LNil {
			if wh, ok := w.RawGetString("headers").(*lua.LTable); ok {
				headers.RawSetString("Host", wh.RawGetString("Host"))
			}
		}
		if lua.LVIsFalse(body) {
			headers.RawSetString("Content-Length", lua.LNil)
		} else {
			body = lua.LString(mustString(L, 4, "body", body))
			headers.RawSetString("Content-Length", lua.LNumber(len(body.(lua.LString))))
		}
		buf = append(buf[:0], mustString(L, 1, "method", method)...)
		buf = append(buf, ' ')
		buf = append(buf, mustString(L, 2, "path", path)...)
		buf = append(buf, " HTTP/1.1\r\n"...)
		err := eachHeader(headers, func(name, value string) {
			buf = append(buf, name...)
			buf = append(buf, ": "...)
			buf = append(buf, value...)
			buf = append(buf, "\r\n"...)
		})
		if err != nil {
			L.ArgError(3, err.Error())
		}
		buf = append(buf, "\r\n"...)
		if s, ok := body.(lua.LString); ok {
			buf = append(buf, s...)
		}
		L.Push(lua.LString(buf))
		return 1
	}
}

// orField returns argument n, or w[name] when the argument is nil or false.
func orField(L *lua.LState, n int, w *lua.LTable, name string) lua.LValue {
	if v := L.Get(n); lua.LVAsBool(v) {
		return v
	}
	return w.RawGetString(name)
}

// mustString converts a string or number to a string, or raises an argument
// error naming what it is.
func mustString(L *lua.LState, n int, what string, v lua.LValue) string {
	switch v := v.(type) {
	case lua.LString:
		return string(v)
	case lua.LNumber:
		return v.String()
	}
	L.ArgError(n, fmt.Sprintf("%s must be a string, got %s", what, describe(v)))
	return ""
}

// eachHeader calls fn for every name/value pair of t in table order (the
// order fields were first set), converting numbers to strings.
func eachHeader(t *lua.LTable, fn func(name, value string)) error {
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		name, ok1 := plainString(k)
		value, ok2 := plainString(v)
		if !ok1 || !ok2 {
			return fmt.Errorf("header %s = %s: want strings", k, describe(v))
		}
		fn(name, value)
	}
	return nil
}

// plainString converts a string or number to a string.
func plainString(v lua.LValue) (string, bool) {
	switch v := v.(type) {
	case lua.LString:
		return string(v), true
	case lua.LNumber:
		return v.String(), true
	}
	return "", false
}

// hostHeader computes the Host header wrk's init adds: wrk.host, bracketed
// when it is an IPv6 address, and ":" wrk.port when the URL named a port.
func hostHeader(w *lua.LTable) string {
	host, _ := plainString(w.RawGetString("host"))
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port, ok := plainString(w.RawGetString("port")); ok {
		host += ":" + port
	}
	return host
}

// lookup is wrk.lookup(host, service): the addresses host resolves to, with
// service's port, as a list of address objects. Where wrk exits on failure,
// this raises a Lua error (catchable with pcall). It gives up when the
// state's code is stopped.
func lookup(L *lua.LState) int {
	host, service := L.CheckString(1), L.CheckString(2)
	ctx, cancel := context.WithTimeout(L.Context(), lookupTimeout)
	defer cancel()
	port, err := net.DefaultResolver.LookupPort(ctx, "tcp", service)
	if err != nil {
		L.RaiseError("unable to resolve %s:%s: %v", host, service, err)
	}
	ips, err := net.DefaultResolver.LookupHost(ctx, host)
	if err != nil {
		L.RaiseError("unable to resolve %s:%s: %v", host, service, err)
	}
	list := L.CreateTable(len(ips), 0)
	for _, ip := range ips {
		list.Append(newAddr(L, net.JoinHostPort(ip, strconv.Itoa(port))))
	}
	L.Push(list)
	return 1
}

// connect is wrk.connect(addr): whether a TCP connection to addr (an
// address object or a "host:port" string) opens within a second (and
// before the state's code is stopped).
func connect(L *lua.LState) int {
	addr := checkAddr(L, 1)
	ctx, cancel := context.WithTimeout(L.Context(), connectTimeout)
	defer cancel()
	conn, err := new(net.Dialer).DialContext(ctx, "tcp", addr)
	if err == nil {
		_ = conn.Close()
	}
	L.Push(lua.LBool(err == nil))
	return 1
}

const addrType = "wrk.addr"

// address is the value of an address object: "host:port", printable with
// tostring.
type address string

// registerAddr installs the address objects' metatable in L.
func registerAddr(L *lua.LState) {
	mt := L.NewTypeMetatable(addrType)
	mt.RawSetString("__tostring", L.NewFunction(func(L *lua.LState) int {
		L.Push(lua.LString(checkAddr(L, 1)))
		return 1
	}))
	mt.RawSetString("__eq", L.NewFunction(func(L *lua.LState) int {
		L.Push(lua.LBool(checkAddr(L, 1) == checkAddr(L, 2)))
		return 1
	}))
}

// newAddr makes an address object for "host:port".
func newAddr(L *lua.LState, hostport string) *lua.LUserData {
	ud := L.NewUserData()
	ud.Value = address(hostport)
	ud.Metatable = L.GetTypeMetatable(addrType)
	return ud
}

// checkAddr returns argument n as "host:port", or raises an argument error.
func checkAddr(L *lua.LState, n int) string {
	addr, ok := toAddr(L.Get(n))
	if !ok {
		L.ArgError(n, "address expected (from wrk.lookup, or a \"host:port\" string)")
	}
	return addr
}

// toAddr converts an address object, or a string that parses as host:port,
// to "host:port".
func toAddr(v lua.LValue) (string, bool) {
	switch v := v.(type) {
	case *lua.LUserData:
		a, ok := v.Value.(address)
		return string(a), ok
	case lua.LString:
		_, _, err := net.SplitHostPort(string(v))
		return string(v), err == nil
	}
	return "", false
}
