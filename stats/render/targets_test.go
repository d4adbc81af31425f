package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/stats"
)

func TestTargetsTable(t *testing.T) {
	r := stats.Result{Requests: 4000, Status: map[string]int64{"200": 4000}, Latency: &stats.Latency{P50: 100, Max: 900}}
	var plain bytes.Buffer
	if err := WriteText(&plain, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	r.Targets = []stats.Target{
		{Method: "GET", URL: "http://h/a", Weight: 1, Requests: 1000, Latency: &stats.Latency{P50: 100, P90: 200, P99: 300, Max: 400}},
		{Name: "login", Method: "POST", URL: "http://h/b", Weight: 3, Requests: 3000, Errors: stats.Errors{Timeout: 2}},
		{Name: "unnamed", Method: "GET", URL: "http://h/?i=1", Weight: 5000, Members: 5000, Requests: 10000},
	}
	var text, md bytes.Buffer
	if err := WriteText(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "Targets") {
		t.Errorf("a result without targets has a targets table:\n%s", plain.String())
	}
	for _, want := range []string{"\nTargets\n", "  1               1       1000        0  100.00us  200.00us  300.00us  400.00us  GET http://h/a\n",
		"  login           3       3000        2         -         -         -         -  POST http://h/b\n",
		"  unnamed      5000      10000        0         -         -         -         -  GET http://h/?i=1 (+4,999 more)\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	for _, want := range []string{"| login | POST http://h/b | 3 | 3000 | 2 | - | - | - | - |\n",
		"| unnamed | GET http://h/?i=1 (+4,999 more) | 5000 | 10000 | 0 | - | - | - | - |\n"} {
		if !strings.Contains(md.String(), "**Targets**") || !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
}
