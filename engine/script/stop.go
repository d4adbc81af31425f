package script

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// OnceLimit is how long each part of a script that runs once may run: the
// top level, setup(), init() and done(). Nothing else bounds them (they run
// before or after the load), and one that takes longer is stuck, most
// likely in an endless loop, so it is stopped with a [StoppedError]. Ten
// seconds leaves room for a script that builds large tables or reads big
// files at start-up. A run with a length of its own bounds the parts that
// run before it more tightly: see [Options.Limit].
const OnceLimit = 10 * time.Second

// bound is how long the parts of one stage that run once (Load's top
// level, or everything one Threads call runs) may run: each at most limit,
// and, when the run sets a budget shorter than OnceLimit, all of them
// together until end.
type bound struct {
	limit time.Duration // the limit a stopped part is said to have outlived
	end   time.Time     // zero: no common end
}

// stage starts the bound of one stage: OnceLimit for each part, or the
// budget for them all when it is shorter (0: no budget).
func stage(onceLimit, budget time.Duration) bound {
	if budget <= 0 || budget >= onceLimit {
		return bound{limit: onceLimit}
	}
	return bound{limit: budget, end: time.Now().Add(budget)}
}

// less is b with d, the time an earlier stage took, taken from its
// common end, if it has one.
func (b bound) less(d time.Duration) bound {
	if !b.end.IsZero() {
		b.end = b.end.Add(-d)
	}
	return b
}

// left is how long the next part may run.
func (b bound) left() time.Duration {
	if b.end.IsZero() {
		return b.limit
	}
	return max(time.Until(b.end), 0)
}

// ErrStopped is returned by a Thread's hook called after the context given
// to [Program.Threads] ended: the script's code did not run. The engine
// drops the request, as any request of a run that is over.
var ErrStopped = errors.New("script stopped: the run is over")

// StoppedError reports Lua code that was stopped while it ran: the context
// it was given ended (the run ended, or pummel was interrupted), or, for a
// part that runs once, it ran longer than its limit ([OnceLimit], or the
// run's budget, [Options.Limit]).
type StoppedError struct {
	Where string        // "name:LINE", the line it was running, when Lua knows it; else the script name
	Hook  string        // what was running: "request()", "init()", "the top level", …
	Limit time.Duration // the limit it outlived; 0 when its context ended
	Run   bool          // a hook of the load (delay, request, response), stopped as the run ended
}

func (e *StoppedError) Error() string {
	switch {
	case e.Limit > 0:
		return fmt.Sprintf("%s: %s did not return within %v and was stopped here (an endless loop?)", e.Where, e.Hook, e.Limit)
	case e.Run:
		return fmt.Sprintf("%s: %s was still running when the run ended and was stopped here (an endless loop?)", e.Where, e.Hook)
	}
	return fmt.Sprintf("%s: %s was still running when pummel was interrupted and was stopped here (an endless loop?)", e.Where, e.Hook)
}

// errLimit is the cause a guard is cancelled with when a part that runs
// once outlives its limit.
var errLimit = errors.New("time limit")

// guard stops one Lua state's code. gopher-lua checks the state's context
// before every instruction and raises an error once it is done; the guard
// owns that context and cancels it, for good, when a context it follows
// ends or a part that runs once outlives its limit. A state keeps one
// context for its whole life, because a coroutine takes a child of the
// context its state has when it is created.
type guard struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	done   <-chan struct{} // ctx.Done(), checked before each hook without a lock
	limit  time.Duration   // the limit of the last part run by once
}

func newGuard(L *lua.LState) *guard {
	ctx, cancel := context.WithCancelCause(context.Background())
	L.SetContext(ctx)
	return &guard{ctx: ctx, cancel: cancel, done: ctx.Done()}
}

// follow stops the state's code when ctx ends; the function it returns
// stops following.
func (g *guard) follow(ctx context.Context) (stop func() bool) {
	return context.AfterFunc(ctx, func() { g.cancel(context.Cause(ctx)) })
}

// ended reports, without blocking, whether the state's code is stopped.
func (g *guard) ended() bool {
	select {
	case <-g.done:
		return true
	default:
		return false
	}
}

// once runs call, a part of the script that runs once, stopping it when
// ctx ends or b has no time left for it.
func (g *guard) once(ctx context.Context, b bound, call func() error) error {
	stop := g.follow(ctx)
	defer stop()
	g.limit = b.limit
	t := time.AfterFunc(b.left(), func() { g.cancel(errLimit) })
	defer t.Stop()
	return call()
}

// stopped turns err, the error of Lua code run under g, into one line
// naming the script (see oneLine), or into a StoppedError naming hook when
// the guard stopped the code. name is the script's name; run says hook is
// one of the load's.
func (g *guard) stopped(err error, name, hook string, run bool) error {
	if err == nil {
		return nil
	}
	if !g.ended() {
		return oneLine(name, err)
	}
	e := &StoppedError{Where: name, Hook: hook, Run: run}
	if errors.Is(context.Cause(g.ctx), errLimit) {
		e.Limit, e.Run = g.limit, false
	}
	// gopher-lua raises the context's error at the line it was running:
	// "name:LINE: context canceled".
	msg := oneLine(name, err).Error()
	if where, ok := strings.CutSuffix(msg, ": "+g.ctx.Err().Error()); ok && strings.HasPrefix(where, name+":") {
		e.Where = where
	}
	return e
}

// close releases the guard's context.
func (g *guard) close() { g.cancel(context.Canceled) }
