package targets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/engine"
)

func TestReadHTTP(t *testing.T) {
	dir := t.TempDir()
	body := filepath.Join(dir, "body.json")
	if err := os.WriteFile(body, []byte(`{"a":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	in := "# a comment\nGET http://127.0.0.1:8080/a\nX-A: 1\n\n# weight 3\n# name login\npost http://127.0.0.1:8080/login?x=1\nContent-Type: application/json\n@" + body +
		"\n\n\nGET http://127.0.0.1:8080/c\n# weight 6\n"
	ts, err := Read(strings.NewReader(in), "t.txt", os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 3 {
		t.Fatalf("%d targets, want 3", len(ts))
	}
	want := []struct {
		method, uri, name string
		weight, line      int
		headers           int
		body              string
	}{
		{"GET", "/a", "", 1, 2, 1, ""},
		{"POST", "/login?x=1", "login", 3, 7, 1, `{"a":1}`},
		{"GET", "/c", "", 6, 12, 0, ""},
	}
	for i, w := range want {
		g := ts[i]
		if g.Method != w.method || g.URL.RequestURI() != w.uri || g.Name != w.name || g.Weight != w.weight ||
			g.Line != w.line || len(g.Headers) != w.headers || string(g.Body) != w.body {
			t.Errorf("target %d = %+v, want %+v", i+1, g, w)
		}
	}
}

func TestReadJSON(t *testing.T) {
	in := `{"method":"POST","url":"http://h/a","header":{"B":["2"],"A":["1","3"]},"body":"aGk=","weight":2,"name":"a"}` + "\n\n" +
		`{"url":"http://h:80/b"}` + "\n"
	ts, err := Read(strings.NewReader(in), "t.jsonl", os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 || ts[0].Method != "POST" || string(ts[0].Body) != "hi" || ts[0].Weight != 2 || ts[0].Name != "a" ||
		!slices.Equal(ts[0].Headers, []engine.Header{{Name: "A", Value: "1"}, {Name: "A", Value: "3"}, {Name: "B", Value: "2"}}) {
		t.Fatalf("first = %+v", ts[0])
	}
	if ts[1].Method != "" || ts[1].Weight != 1 || ts[1].Line != 3 {
		t.Fatalf("second = %+v", ts[1])
	}
}

func TestReadErrorsNameTheLine(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"bad request line", "GET http://h/\n\nGET\n", 3, "not a request line"},
		{"bad header", "GET http://h/\nno colon here\n", 2, "not a header line"},
		{"missing body file", "GET http://h/\n\nPOST http://h/x\n@/nonexistent/pummel-body\n", 4, "body file"},
		{"foreign host", "GET http://h/\n\nGET http://other/\n", 3, "not on http://h:80"},
		{"foreign port", "GET http://h/\n\nGET http://h:81/\n", 3, "not on"},
		{"foreign scheme", "GET http://h/\n\nGET https://h/\n", 3, "not on"},
		{"not http", "GET ftp://h/\n", 1, "not an http"},
		{"bad method", "G(T http://h/\n", 1, "method"},
		{"bad weight", "# weight 0\nGET http://h/\n", 1, "weight"},
		{"second weight", "# weight 2\nGET http://h/\n# weight 2\n", 3, "second weight"},
		{"second name", "# name a\nGET http://h/\n# name b\n", 3, "second name"},
		{"101 names", names(101), 3*100 + 1, "more than 100 names"},
		{"numeric name", "# name 2\nGET http://h/\n", 1, "name"},
		{"empty", "\n# only a comment\n", 2, "no targets"},
		{"json", `{"url":"http://h/"}` + "\n" + `{"url":"http://h/","bogus":1}` + "\n", 2, "not a JSON target"},
		{"json foreign", `{"url":"http://h/"}` + "\n" + `{"url":"http://x/"}` + "\n", 2, "not on"},
		{"json weight", `{"url":"http://h/","weight":-1}` + "\n", 1, "weight"},
		{"trailing weight", "GET http://h/\n\n# weight 2\n", 3, "follows the last target"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in), "t.txt", os.ReadFile)
			var e *Error
			if !errors.As(err, &e) || e.Line != tt.line || !strings.Contains(err.Error(), tt.msg) ||
				!strings.HasPrefix(err.Error(), "t.txt:") {
				t.Fatalf("error %v, want t.txt:%d: …%s…", err, tt.line, tt.msg)
			}
		})
	}
}

// names is a list of n targets, each of a name of its own, on three lines
// each: "# name tN", its request line and a blank line.
func names(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "# name t%d\nGET http://h/%d\n\n", i, i)
	}
	return b.String()
}

func TestTooManyTargets(t *testing.T) {
	in := strings.Repeat("GET http://h/\n\n", 11)
	_, err := read(strings.NewReader(in), "t", os.ReadFile, 10)
	var e *Error
	if !errors.As(err, &e) || e.Line != 21 || !strings.Contains(err.Error(), "more than 10 targets") {
		t.Fatalf("error %v, want t:21: more than 10 targets", err)
	}
}

// TestOneTargetALine: a request line ends the target before it, so that
// a file of one "GET URL" a line reads as vegeta reads it.
func TestOneTargetALine(t *testing.T) {
	ts, err := Read(strings.NewReader("GET http://h/1\nX-A: 1\nPOST http://h/2\n# weight 2\nGET http://h/3\n"), "t", os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 3 || len(ts[0].Headers) != 1 || ts[1].Method != "POST" || ts[1].Weight != 2 || ts[2].Line != 5 || ts[2].Weight != 1 {
		t.Fatalf("%+v", ts)
	}
}

// TestTargetsShareAName: a name may group any number of targets, and
// unnamed ones are not counted against the names.
func TestTargetsShareAName(t *testing.T) {
	in := "# name a\nGET http://h/1\n\n# name a\nGET http://h/2\n\nGET http://h/3\n\n" + names(99)
	ts, err := Read(strings.NewReader(in), "t", os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 102 || ts[0].Name != "a" || ts[1].Name != "a" || ts[2].Name != "" {
		t.Fatalf("%d targets, first three %+v", len(ts), ts[:3])
	}
}

// TestHeadersStayHeaders: a header line is no request line, even one
// whose value is a URL, so it does not end its target.
func TestHeadersStayHeaders(t *testing.T) {
	for _, header := range []string{"Referer: http://h/x", "X-Url :http://h/x", "X-Url:https://h/x", "Via: 1.1 h"} {
		ts, err := Read(strings.NewReader("GET http://h/1\n"+header+"\n"), "t", os.ReadFile)
		if err != nil || len(ts) != 1 || len(ts[0].Headers) != 1 {
			t.Errorf("%q: %v, %+v; want one target with one header", header, err, ts)
		}
	}
}

// TestEmptyBodyFile: an empty body file is an empty body, not none: the
// target sends no -b default (a nil Body takes it), and a second body
// file is still refused.
func TestEmptyBodyFile(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	ts, err := Read(strings.NewReader("POST http://h/\n@"+empty+"\n"), "t", os.ReadFile)
	if err != nil || len(ts) != 1 || ts[0].Body == nil || len(ts[0].Body) != 0 {
		t.Fatalf("%+v, %v; want one target with an empty, non-nil body", ts, err)
	}
	if _, err := Read(strings.NewReader("POST http://h/\n@"+empty+"\n@"+empty+"\n"), "t", os.ReadFile); err == nil || !strings.Contains(err.Error(), "second body file") {
		t.Fatalf("two body files: %v, want a second body file refused", err)
	}
}

// TestBodyReaderDecides: an "@path" line's file is read by the caller's
// BodyReader, given the path as written, and its error is the line's.
func TestBodyReaderDecides(t *testing.T) {
	var asked []string
	body := func(path string) ([]byte, error) {
		asked = append(asked, path)
		return nil, errors.New(path + " holds too much")
	}
	_, err := Read(strings.NewReader("GET http://h/\n\nPOST http://h/x\n@ big.bin \n"), "t.txt", body)
	if want := "t.txt:4: body file: big.bin holds too much"; err == nil || err.Error() != want || !slices.Equal(asked, []string{"big.bin"}) {
		t.Errorf("Read = %v, read %q; want %q, read [big.bin]", err, asked, want)
	}
}
