package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/pummel-dev/pummel/engine/http1"
	"github.com/pummel-dev/pummel/internal/parse"
)

// Checks are what every response must pass; a response that fails
// one is still a response, and also a validation error. The causes of
// failures name the check, never the response's content, so that a run
// with many different wrong bodies keeps a short list of causes.
type Checks struct {
	// Status lists the acceptable status codes; empty accepts any.
	Status []parse.StatusRange
	// Body, if set, must occur in every response body.
	Body []byte
	// BodyEquals, if not nil, must be every response body, byte for byte;
	// an empty, non-nil BodyEquals expects an empty body.
	BodyEquals []byte
	// JSON lists fields every response body, read as JSON, must hold.
	JSON []JSONField
}

// JSONField is a check on one field of a JSON response body.
type JSONField struct {
	// Path is dotted: "account.id" is the field id of the object account;
	// a numeric segment indexes an array ("items.0.name"); "" is the
	// whole document.
	Path string
	// Value is the expected value as JSON text: `"123"`, `42`, `true`,
	// `null`, `{"a": [1, 2]}`. Numbers compare by value and objects
	// regardless of key order.
	Value string
}

// rejects reports whether status is an error of class status: 400 and
// above, as wrk, unless the user's accepted statuses include it.
func (r *Load) rejects(status int) bool {
	return status >= 400 && !(len(r.Config.Checks.Status) > 0 && parse.StatusIn(r.Config.Checks.Status, status))
}

func (e *Checks) active() bool {
	return len(e.Status) > 0 || len(e.Body) > 0 || e.BodyEquals != nil || len(e.JSON) > 0
}

// needsBody reports whether responses must be kept to be checked.
func (e *Checks) needsBody() bool {
	return len(e.Body) > 0 || e.BodyEquals != nil || len(e.JSON) > 0
}

// check returns why a response fails the checks, or "" if it passes. The
// checks run in the order of Checks' fields; the first failure is the cause.
func (e *Checks) check(status int, body []byte) string {
	if len(e.Status) > 0 && !e.statusOK(status) {
		return "unexpected status " + strconv.Itoa(status)
	}
	if len(e.Body) > 0 && !bytes.Contains(body, e.Body) {
		return fmt.Sprintf("body lacks %q", truncate(e.Body, 40))
	}
	if e.BodyEquals != nil && !bytes.Equal(body, e.BodyEquals) {
		return bodyDiffers(len(body), len(e.BodyEquals))
	}
	if len(e.JSON) > 0 {
		return checkJSON(body, e.JSON)
	}
	return ""
}

// bodyDiffers is the cause of a failed BodyEquals.
func bodyDiffers(got, want int) string {
	if got >= http1.MaxKeptBody {
		return fmt.Sprintf("body over %d MiB, too large to compare", http1.MaxKeptBody>>20)
	}
	return fmt.Sprintf("body differs from the expected %d bytes", want)
}

func (e *Checks) statusOK(status int) bool { return parse.StatusIn(e.Status, status) }

// checkJSON decodes body once and checks each field in turn.
func checkJSON(body []byte, fields []JSONField) string {
	var doc any
	if err := json.Unmarshal(body, &doc); err != nil {
		return "body is not JSON"
	}
	for _, f := range fields {
		got, ok := lookupJSON(doc, f.Path)
		if !ok {
			return fmt.Sprintf("JSON field %q is missing", truncate([]byte(f.Path), 40))
		}
		if !sameJSON(got, f.Value) {
			return fmt.Sprintf("JSON field %q is not %s", truncate([]byte(f.Path), 40), truncate([]byte(f.Value), 40))
		}
	}
	return ""
}

// lookupJSON follows a dotted path through decoded JSON.
func lookupJSON(doc any, path string) (any, bool) {
	if path == "" {
		return doc, true
	}
	for seg := range strings.SplitSeq(path, ".") {
		switch v := doc.(type) {
		case map[string]any:
			next, ok := v[seg]
			if !ok {
				return nil, false
			}
			doc = next
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(v) {
				return nil, false
			}
			doc = v[i]
		default:
			return nil, false
		}
	}
	return doc, true
}

// sameJSON reports whether a decoded value equals the JSON text want,
// comparing both in the canonical form encoding/json writes (sorted keys,
// numbers as float64).
func sameJSON(got any, want string) bool {
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		return false
	}
	a, errA := json.Marshal(got)
	b, errB := json.Marshal(w)
	return errA == nil && errB == nil && bytes.Equal(a, b)
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
