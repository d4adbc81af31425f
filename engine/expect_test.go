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
		expect Expect
		status int
		body   string
		want   string // "" passes; otherwise part of the cause
	}{
		{"no checks", Expect{}, 500, "x", ""},
		{"status in range", Expect{Status: []parse.StatusRange{{Lo: 200, Hi: 299}}}, 204, "", ""},
		{"status out of range", Expect{Status: []parse.StatusRange{{Lo: 200, Hi: 299}}}, 404, "", "unexpected status 404"},
		{"contains", Expect{Body: []byte("ok")}, 200, "all ok", ""},
		{"lacks", Expect{Body: []byte("ok")}, 200, "nope", `body lacks "ok"`},
		{"equals", Expect{BodyEquals: []byte("hello")}, 200, "hello", ""},
		{"differs", Expect{BodyEquals: []byte("hello")}, 200, "hello!", "body differs from the expected 5 bytes"},
		{"prefix differs", Expect{BodyEquals: []byte("hello")}, 200, "hell", "differs"},
		{"empty body expected", Expect{BodyEquals: []byte{}}, 200, "", ""},
		{"empty body expected, got one", Expect{BodyEquals: []byte{}}, 200, "x", "expected 0 bytes"},
		{"json string", Expect{JSON: []JSONField{{"account.id", `"123"`}}}, 200, doc, ""},
		{"json number by value", Expect{JSON: []JSONField{{"account.n", `42.0`}}}, 200, doc, ""},
		{"json bool", Expect{JSON: []JSONField{{"account.ok", `true`}}}, 200, doc, ""},
		{"json null", Expect{JSON: []JSONField{{"account.none", `null`}}}, 200, doc, ""},
		{"json array index", Expect{JSON: []JSONField{{"account.tags.1", `"b"`}}}, 200, doc, ""},
		{"json whole array", Expect{JSON: []JSONField{{"account.tags", `["a","b"]`}}}, 200, doc, ""},
		{"json object in any key order", Expect{JSON: []JSONField{{"", `{"account":{"none":null,"tags":["a","b"],"ok":true,"n":42,"id":"123"}}`}}}, 200, doc, ""},
		{"json wrong value", Expect{JSON: []JSONField{{"account.id", `"456"`}}}, 200, doc, `JSON field "account.id" is not "456"`},
		{"json string is not a number", Expect{JSON: []JSONField{{"account.id", `123`}}}, 200, doc, "is not 123"},
		{"json missing field", Expect{JSON: []JSONField{{"account.name", `"x"`}}}, 200, doc, `JSON field "account.name" is missing`},
		{"json index out of range", Expect{JSON: []JSONField{{"account.tags.2", `"c"`}}}, 200, doc, "is missing"},
		{"json path through a scalar", Expect{JSON: []JSONField{{"account.id.x", `1`}}}, 200, doc, "is missing"},
		{"json second field fails", Expect{JSON: []JSONField{{"account.n", `42`}, {"account.ok", `false`}}}, 200, doc, `"account.ok" is not false`},
		{"not json", Expect{JSON: []JSONField{{"a", `1`}}}, 200, "<html>", "body is not JSON"},
		{"status first", Expect{Status: []parse.StatusRange{{Lo: 200, Hi: 200}}, BodyEquals: []byte("x")}, 500, "y", "unexpected status 500"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.expect.check(tt.status, []byte(tt.body))
			if (got == "") != (tt.want == "") || !strings.Contains(got, tt.want) {
				t.Errorf("check(%d, %q) = %q, want %q", tt.status, tt.body, got, tt.want)
			}
		})
	}
}

func TestExpectKeepsBodiesOnlyForBodyChecks(t *testing.T) {
	tests := []struct {
		name   string
		expect Expect
		want   bool
	}{
		{"none", Expect{}, false},
		{"status only", Expect{Status: []parse.StatusRange{{Lo: 200, Hi: 200}}}, false},
		{"contains", Expect{Body: []byte("x")}, true},
		{"equals empty", Expect{BodyEquals: []byte{}}, true},
		{"json", Expect{JSON: []JSONField{{"a", "1"}}}, true},
	}
	for _, tt := range tests {
		if got := tt.expect.needsBody(); got != tt.want {
			t.Errorf("%s: needsBody() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestExpectBodyEqualsAndJSONOverTheWire(t *testing.T) {
	body := []byte(`{"id": "abc", "size": 3}`)
	for _, b := range []fixture.Behaviour{{Body: body}, {Body: body, Chunked: true}} {
		srv := fixture.New(t, b)
		pass := Expect{BodyEquals: body, JSON: []JSONField{{"id", `"abc"`}, {"size", "3"}}}
		if res := load(t, srv, Config{Requests: 5, Expect: pass}); res.Requests != 5 || res.Errors != (stats.Errors{}) {
			t.Errorf("chunked %v: requests %d, errors %+v %v", b.Chunked, res.Requests, res.Errors, res.ErrorCauses)
		}
		fail := Expect{JSON: []JSONField{{"id", `"xyz"`}}}
		res := load(t, srv, Config{Requests: 5, Expect: fail})
		if res.Errors.Validation != 5 || res.ErrorCauses["validation"][`JSON field "id" is not "xyz"`] != 5 {
			t.Errorf("chunked %v: validation %d, causes %v", b.Chunked, res.Errors.Validation, res.ErrorCauses)
		}
	}
}
