package suite

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/internal/fixture"
)

// checkPlan is a plan whose "server" is a sleep, watched as usual, while
// its operations go to fixture servers answering 200, 500, 503, 302 and
// 404 (%[1]s to %[5]s): each operation names the status it asks for, and
// what it depends on.
const checkPlan = `server:
  command: [sleep, "30"]
  ready: {url: "%[1]s"}
  settle: 0s
operations:
  - {name: explicit, url: "%[2]s", checks: {status: 200}, load: {sequential: {requests: 20}}}
  - {name: default, url: "%[3]s", load: {sequential: {requests: 20}}}
  - {name: redirect, url: "%[4]s", checks: {status: 200}, load: {sequential: {requests: 20}}}
  - {name: accepted, url: "%[5]s", checks: {status: 404}, load: {sequential: {requests: 20}}}
  - {name: ok, url: "%[1]s", load: {closed: {connections: 2, requests: 20}}}
  - {name: after-default, url: "%[1]s", depends_on: default, load: {sequential: {requests: 20}}}
  - {name: after-skipped, url: "%[1]s", depends_on: after-default, load: {sequential: {requests: 20}}}
  - {name: after-ok, url: "%[1]s", depends_on: ok, load: {sequential: {requests: 20}}}
`

// TestEveryFailedCheckCounts runs operations against statuses their
// checks refuse or accept: every response a check refuses is a check
// failure, whatever the engine's error class for it, and an operation
// whose dependency failed (or was skipped) is skipped.
func TestEveryFailedCheckCounts(t *testing.T) {
	var urls []any
	for _, status := range []int{200, 500, 503, 302, 404} {
		urls = append(urls, fixture.New(t, fixture.Behaviour{Status: []int{status}}).URL())
	}
	s, err := Load(context.Background(), writePlan(t, fmt.Sprintf(checkPlan, urls...)))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(t.Context(), s, Options{Dir: t.TempDir()}) // the server logs go there
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		op       string
		failures int64
		cause    string // the one cause of the failures
		skipped  string // in the reason it was skipped
	}{
		{op: "explicit", failures: 20, cause: "unexpected status 500"},
		{op: "default", failures: 20, cause: "unexpected status 503"},
		{op: "redirect", failures: 20, cause: "unexpected status 302"},
		{op: "accepted"},
		{op: "ok"},
		{op: "after-default", skipped: "default, which it depends on, failed a check"},
		{op: "after-skipped", skipped: "after-default, which it depends on, was skipped"},
		{op: "after-ok"},
	}
	ops := rep.Runs[0].Operations
	if len(ops) != len(tests) {
		t.Fatalf("%d operations, want %d", len(ops), len(tests))
	}
	for i, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			op, sum := ops[i], rep.Summary.Operations[i]
			if op.CheckFailures != tt.failures || sum.CheckFailures != tt.failures {
				t.Errorf("check failures %d in the run, %d in the summary; want %d", op.CheckFailures, sum.CheckFailures, tt.failures)
			}
			if tt.cause != "" && (len(sum.CheckCauses) != 1 || sum.CheckCauses[tt.cause] != tt.failures) {
				t.Errorf("causes %v, want %d × %s", sum.CheckCauses, tt.failures, tt.cause)
			}
			if !strings.Contains(op.Skipped, tt.skipped) || (tt.skipped == "") != (op.Result != nil) {
				t.Errorf("skipped %q with result %v, want skipped for %q", op.Skipped, op.Result != nil, tt.skipped)
			}
		})
	}
	if rep.CheckFailures != 60 {
		t.Errorf("report: %d check failures, want 60", rep.CheckFailures)
	}
}
