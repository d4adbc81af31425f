package engine

import (
	"bytes"
	"fmt"
	"strconv"
)

// Expect holds the checks every response must pass; a response that fails
// one is still a response, and also a validation error.
type Expect struct {
	// Status lists the acceptable status codes; empty accepts any.
	Status []StatusRange
	// Body, if set, must occur in every response body.
	Body []byte
}

// StatusRange is an inclusive range of status codes ("200" or "2xx").
type StatusRange struct{ Lo, Hi int }

func (e *Expect) active() bool { return len(e.Status) > 0 || len(e.Body) > 0 }

// needsBody reports whether responses must be kept to be checked.
func (e *Expect) needsBody() bool { return len(e.Body) > 0 }

// check returns why a response fails the checks, or "" if it passes.
func (e *Expect) check(status int, body []byte) string {
	if len(e.Status) > 0 && !e.statusOK(status) {
		return "unexpected status " + strconv.Itoa(status)
	}
	if len(e.Body) > 0 && !bytes.Contains(body, e.Body) {
		return fmt.Sprintf("body lacks %q", truncate(e.Body, 40))
	}
	return ""
}

func (e *Expect) statusOK(status int) bool {
	for _, r := range e.Status {
		if status >= r.Lo && status <= r.Hi {
			return true
		}
	}
	return false
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
