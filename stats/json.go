package stats

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// WriteJSON writes r as one indented JSON object followed by a newline: the
// schema documented on Result, which `pummel report` and `pummel compare`
// read back with NextJSON. HTML characters are not escaped, so URLs and
// commands stay readable ("&", not "\u0026").
func WriteJSON(w io.Writer, r Result) error {
	if err := EncodeJSON(w, r); err != nil {
		return fmt.Errorf("writing JSON result: %w", err)
	}
	return nil
}

// EncodeJSON writes v as pummel writes every JSON file: one object
// indented by two spaces, HTML characters unescaped, and a newline.
func EncodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// NextJSON decodes the next result written by WriteJSON from dec: a
// file's one result, or one of several written one after another (the
// logs of several parts of a sharded load). Fields it does not know are
// ignored, so that a result saved by a newer pummel still reads; a
// missing field keeps its zero value, and a result without a response has
// no latency. null is refused; Result.Validate checks the rest.
func NextJSON(dec *json.Decoder) (Result, error) {
	var r *Result
	if err := dec.Decode(&r); err != nil {
		return Result{}, fmt.Errorf("reading JSON result: %w", err)
	}
	if r == nil {
		return Result{}, errors.New("reading JSON result: null, want an object")
	}
	if r.Requests == 0 {
		r.Latency = nil // absent, where an older pummel wrote zeros
	}
	return *r, nil
}
