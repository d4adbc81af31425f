package script

import (
	"context"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// Summary is done()'s first argument: the totals of the run.
type Summary struct {
	Duration time.Duration // measured run time; Lua sees microseconds
	Requests int64         // completed requests
	Bytes    int64         // bytes read
	Errors   Errors
}

// Errors counts failed requests by class, as wrk's summary.errors.
type Errors struct{ Connect, Read, Write, Status, Timeout int64 }

// Distribution is a recorded distribution, done()'s latency (microseconds)
// and requests (per-thread requests/s samples) arguments. Finish adapts
// the latency histogram and the Req/Sec summary to it.
type Distribution interface {
	Min() float64
	Max() float64
	Mean() float64
	Stdev() float64
	// Percentile returns the value at p percent (50, 99.9), not a fraction.
	Percentile(p float64) float64
	// Len returns how many distinct values were recorded.
	Len() int
	// At returns the i-th distinct value in ascending order (0-based) and
	// how many times it was recorded.
	At(i int) (value float64, count int64)
}

// Done calls the script's done(summary, latency, requests), if defined, in
// the setup state. Call it once, after every Thread has finished. It runs
// after the load, also after an interrupted one, so no context stops it:
// only [OnceLimit] does. Errors are one line naming the script.
func (p *Program) Done(s Summary, latency, requests Distribution) error {
	L := p.setup
	fn, ok := L.G.Global.RawGetString("done").(*lua.LFunction)
	if !ok {
		return nil
	}
	return p.guard.once(context.Background(), bound{limit: p.limit}, func() error {
		L.Push(fn)
		L.Push(summaryTable(L, s))
		L.Push(newStats(L, latency))
		L.Push(newStats(L, requests))
		return p.guard.stopped(L.PCall(3, 0, nil), p.name, "done()", false)
	})
}

// HasDone reports whether the script defines done(), so the engine can skip
// building the distributions.
func (p *Program) HasDone() bool { return isFunction(p.setup.G.Global, "done") }

// summaryTable builds wrk's summary table.
func summaryTable(L *lua.LState, s Summary) *lua.LTable {
	errs := L.CreateTable(0, 5)
	errs.RawSetString("connect", lua.LNumber(s.Errors.Connect))
	errs.RawSetString("read", lua.LNumber(s.Errors.Read))
	errs.RawSetString("write", lua.LNumber(s.Errors.Write))
	errs.RawSetString("status", lua.LNumber(s.Errors.Status))
	errs.RawSetString("timeout", lua.LNumber(s.Errors.Timeout))
	t := L.CreateTable(0, 4)
	t.RawSetString("duration", lua.LNumber(s.Duration.Microseconds()))
	t.RawSetString("requests", lua.LNumber(s.Requests))
	t.RawSetString("bytes", lua.LNumber(s.Bytes))
	t.RawSetString("errors", errs)
	return t
}

const statsType = "wrk.stats"

// registerStats installs the statistics objects' metatable in L: fields
// min, max, mean, stdev; method percentile(p); d(i) returns the i-th
// distinct value (1-based) and its count, nil past the end; #d counts them.
func registerStats(L *lua.LState) {
	percentile := L.NewFunction(func(L *lua.LState) int {
		d := checkStats(L)
		L.Push(lua.LNumber(d.Percentile(float64(L.CheckNumber(2)))))
		return 1
	})
	mt := L.NewTypeMetatable(statsType)
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		d := checkStats(L)
		switch L.CheckString(2) {
		case "min":
			L.Push(lua.LNumber(d.Min()))
		case "max":
			L.Push(lua.LNumber(d.Max()))
		case "mean":
			L.Push(lua.LNumber(d.Mean()))
		case "stdev":
			L.Push(lua.LNumber(d.Stdev()))
		case "percentile":
			L.Push(percentile)
		default:
			L.Push(lua.LNil)
		}
		return 1
	}))
	mt.RawSetString("__call", L.NewFunction(func(L *lua.LState) int {
		d, i := checkStats(L), int(L.CheckNumber(2))
		if i < 1 || i > d.Len() {
			L.Push(lua.LNil)
			return 1
		}
		v, n := d.At(i - 1)
		L.Push(lua.LNumber(v))
		L.Push(lua.LNumber(n))
		return 2
	}))
	mt.RawSetString("__len", L.NewFunction(func(L *lua.LState) int {
		L.Push(lua.LNumber(checkStats(L).Len()))
		return 1
	}))
}

// newStats makes a statistics object for d; nil reads as empty.
func newStats(L *lua.LState, d Distribution) *lua.LUserData {
	if d == nil {
		d = empty{}
	}
	ud := L.NewUserData()
	ud.Value = d
	ud.Metatable = L.GetTypeMetatable(statsType)
	return ud
}

// checkStats returns argument 1 as a Distribution.
func checkStats(L *lua.LState) Distribution {
	if ud, ok := L.Get(1).(*lua.LUserData); ok {
		if d, ok := ud.Value.(Distribution); ok {
			return d
		}
	}
	L.ArgError(1, "statistics object expected (call as latency:percentile(p))")
	return nil
}

// empty is the Distribution of nothing recorded.
type empty struct{}

func (empty) Min() float64               { return 0 }
func (empty) Max() float64               { return 0 }
func (empty) Mean() float64              { return 0 }
func (empty) Stdev() float64             { return 0 }
func (empty) Percentile(float64) float64 { return 0 }
func (empty) Len() int                   { return 0 }
func (empty) At(int) (float64, int64)    { return 0, 0 }
