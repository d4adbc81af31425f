package engine

import (
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/internal/parse"
	"github.com/pummel-dev/pummel/stats"
)

func TestExpectChecks(t *testing.T) {
	const doc = `{"account": {"id": "123", "n": 42, "ok": true, "tags": ["a", "b"], "none": null}}`
	tests := []struct {
		name   string
		checks Checks
		status int
		body   string
		want   string // "" passes; otherwise part of the cause
	}{
		{"no checks", Checks{}, 500, "x", ""},
		{"status in range", Checks{Status: []parse.StatusRange{{Lo: 200, Hi: 299}}}, 204, "", ""},
		{"status out of range", Checks{Status: []parse.StatusRange{{Lo: 200, Hi: 299}}}, 404, "", "unexpected status 404"},
		{"contains", Checks{Body: []byte("ok")}, 200, "all ok", ""},
		{"lacks", Checks{Body: []byte("ok")}, 200, "nope", `body lacks "ok"`},
		{"equals", Checks{BodyEquals: []byte("hello")}, 200, "hello", ""},
		{"differs", Checks{BodyEquals: []byte("hello")}, 200, "hello!", "body differs from the expected 5 bytes"},
		{"prefix differs", Checks{BodyEquals: []byte("hello")}, 200, "hell", "differs"},
		{"empty body expected", Checks{BodyEquals: []byte{}}, 200, "", ""},
		{"empty body expected, got one", Checks{BodyEquals: []byte{}}, 200, "x", "expected 0 bytes"},
		{"json string", Checks{JSON: []JSONField{{"account.id", `"123"`}}}, 200, doc, ""},
		{"json number by value", Checks{JSON: []JSONField{{"account.n", `42.0`}}}, 200, doc, ""},
		{"json bool", Checks{JSON: []JSONField{{"account.ok", `true`}}}, 200, doc, ""},
		{"json null", Checks{JSON: []JSONField{{"account.none", `null`}}}, 200, doc, ""},
		{"json array index", Checks{JSON: []JSONField{{"account.tags.1", `"b"`}}}, 200, doc, ""},
		{"json whole array", Checks{JSON: []JSONField{{"account.tags", `["a","b"]`}}}, 200, doc, ""},
		{"json object in any key order", Checks{JSON: []JSONField{{"", `{"account":{"none":null,"tags":["a","b"],"ok":true,"n":42,"id":"123"}}`}}}, 200, doc, ""},
		{"json wrong value", Checks{JSON: []JSONField{{"account.id", `"456"`}}}, 200, doc, `JSON field "account.id" is not "456"`},
		{"json string is not a number", Checks{JSON: []JSONField{{"account.id", `123`}}}, 200, doc, "is not 123"},
		{"json missing field", Checks{JSON: []JSONField{{"account.name", `"x"`}}}, 200, doc, `JSON field "account.name" is missing`},
		{"json index out of range", Checks{JSON: []JSONField{{"account.tags.2", `"c"`}}}, 200, doc, "is missing"},
		{"json path through a scalar", Checks{JSON: []JSONField{{"account.id.x", `1`}}}, 200, doc, "is missing"},
		{"json second field fails", Checks{JSON: []JSONField{{"account.n", `42`}, {"account.ok", `false`}}}, 200, doc, `"account.ok" is not false`},
		{"not json", Checks{JSON: []JSONField{{"a", `1`}}}, 200, "<html>", "body is not JSON"},
		{"status first", Checks{Status: []parse.StatusRange{{Lo: 200, Hi: 200}}, BodyEquals: []byte("x")}, 500, "y", "unexpected status 500"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.checks.check(tt.status, []byte(tt.body))
			if (got == "") != (tt.want == "") || !strings.Contains(got, tt.want) {
				t.Errorf("check(%d, %q) = %q, want %q", tt.status, tt.body, got, tt.want)
			}
		})
	}
}

func TestExpectKeepsBodiesOnlyForBodyChecks(t *testing.T) {
	tests := []struct {
		name   string
		checks Checks
		want   bool
	}{
		{"none", Checks{}, false},
		{"status only", Checks{Status: []parse.StatusRange{{Lo: 200, Hi: 200}}}, false},
		{"contains", Checks{Body: []byte("x")}, true},
		{"equals empty", Checks{BodyEquals: []byte{}}, true},
		{"json", Checks{JSON: []JSONField{{"a", "1"}}}, true},
	}
	for _, tt := range tests {
		if got := tt.checks.needsBody(); got != tt.want {
			t.Errorf("%s: needsBody() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestExpectBodyEqualsAndJSONOverTheWire(t *testing.T) {
	body := []byte(`{"id": "abc", "size": 3}`)
	for _, b := range []fixture.Behaviour{{Body: body}, {Body: body, Chunked: true}} {
		srv := fixture.New(t, b)
		pass := Checks{BodyEquals: body, JSON: []JSONField{{"id", `"abc"`}, {"size", "3"}}}
		if res := runLoad(t, srv, Config{Requests: 5, Checks: pass}); res.Requests != 5 || res.Errors != (stats.Errors{}) {
			t.Errorf("chunked %v: requests %d, errors %+v %v", b.Chunked, res.Requests, res.Errors, res.ErrorCauses)
		}
		fail := Checks{JSON: []JSONField{{"id", `"xyz"`}}}
		res := runLoad(t, srv, Config{Requests: 5, Checks: fail})
		if res.Errors.Validation != 5 || res.ErrorCauses["validation"][`JSON field "id" is not "xyz"`] != 5 {
			t.Errorf("chunked %v: validation %d, causes %v", b.Chunked, res.Errors.Validation, res.ErrorCauses)
		}
	}
}
