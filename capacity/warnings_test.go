package capacity

import (
	"slices"
	"testing"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/threshold"
)

func TestUnboundedErrors(t *testing.T) {
	failing := []stats.Result{{TargetRate: 100, Errors: stats.Errors{Status: 100}, StepResult: &stats.StepResult{Passed: true}}}
	for _, tc := range []struct {
		name  string
		slo   []string
		steps []stats.Result
		warn  bool
	}{
		{"no error bound, errors", []string{"p99<50ms"}, failing, true},
		{"an errors bound", []string{"p99<50ms", "errors<0.1%"}, failing, false},
		{"a status bound", []string{"status_5xx==0"}, failing, false},
		{"no errors", []string{"p99<50ms"}, []stats.Result{{TargetRate: 100, StepResult: &stats.StepResult{Passed: true}}}, false},
		{"one class bounded", []string{"errors_timeout<1"}, failing, true},
		{"a lower bound", []string{"status_200>0"}, failing, true},
		{"one target bounded", []string{"errors{target=1}<1"}, failing, true},
	} {
		var slo []threshold.Expr
		for _, text := range tc.slo {
			e, err := threshold.Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			slo = append(slo, e)
		}
		if got := unboundedErrors(slo, tc.steps); (got != "") != tc.warn {
			t.Errorf("%s: warning %q, want one: %v", tc.name, got, tc.warn)
		}
	}
}

// TestCapacityWarningNamesItsStep: the answer's step passed although its
// schedule was not kept; the engine's warning, printed beside the
// verdict, names that step (its line says why it passed: TestJudge).
func TestCapacityWarningNamesItsStep(t *testing.T) {
	const warning = "the schedule was not kept: achieved 999.95 of 1000 requests/s, 31 of 2000 sends more than 2.00ms late"
	steps := []stats.Result{
		{RequestsPerS: 900, StepResult: &stats.StepResult{Verdict: stats.VerdictProbe}},
		{TargetRate: 500, AchievedRate: 500, StepResult: &stats.StepResult{Verdict: stats.VerdictPass, Passed: true}},
		{TargetRate: 1000, AchievedRate: 999.95, Warnings: []string{warning}, StepResult: &stats.StepResult{Verdict: stats.VerdictPass, Passed: true}},
		{TargetRate: 1900, AchievedRate: 1400, Warnings: []string{"another step's"}, StepResult: &stats.StepResult{Verdict: stats.VerdictFail}},
	}
	for _, tc := range []struct {
		name  string
		final stats.Result
		want  []string
	}{
		{"the answer's step", steps[2], []string{"step 3 (1,000 req/s): " + warning}},
		{"a step without warnings", steps[1], []string{}},
	} {
		got := Warnings(Outcome{Steps: steps, Final: tc.final}, nil, 0, true)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: warnings %q; want %q", tc.name, got, tc.want)
		}
	}
	if steps[2].Warnings[0] != warning {
		t.Errorf("the step's own warning became %q", steps[2].Warnings[0])
	}
}
