package script

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// syntaxError formats a parse or compile error as "name:LINE: message".
func syntaxError(name string, err error) error {
	var perr *parse.Error
	var cerr *lua.CompileError
	switch {
	case errors.As(err, &perr) && perr.Pos.Line == parse.EOF:
		return fmt.Errorf("%s: %s at end of file", name, perr.Message)
	case errors.As(err, &perr):
		return fmt.Errorf("%s:%d: %s near '%s'", name, perr.Pos.Line, perr.Message, perr.Token)
	case errors.As(err, &cerr):
		return fmt.Errorf("%s:%d: %s", name, cerr.Line, cerr.Message)
	}
	return fmt.Errorf("%s: %s", name, flatten(err.Error()))
}

// oneLine turns an error from running Lua into one line that starts with
// the script name (Lua's own "name:LINE:" prefix when it has one), without
// the stack trace. A nil error stays nil.
func oneLine(name string, err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	var api *lua.ApiError
	if errors.As(err, &api) {
		msg = api.Object.String()
		if _, ok := api.Object.(lua.LString); !ok && api.Type != lua.ApiErrorPanic {
			msg = "error object is " + describe(api.Object)
		}
	}
	msg = flatten(msg)
	if !strings.HasPrefix(msg, name+":") {
		msg = name + ": " + msg
	}
	return errors.New(msg)
}

// flatten keeps a message on one line.
func flatten(s string) string {
	return strings.Join(strings.Fields(strings.TrimSpace(s)), " ")
}

// parseNumber parses a string as Lua's tonumber does: decimal, exponent or
// hexadecimal, surrounded by optional spaces.
func parseNumber(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		return n, nil
	}
	n, err := strconv.ParseInt(s, 0, 64)
	return float64(n), err
}
