package capacity

import (
	"fmt"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/render"
	"github.com/pummel-dev/pummel/threshold"
)

// Warnings are what a search's result says beside its verdict: the
// warnings of the step that stands for the answer, each naming that step;
// steps that passed with failed requests when slo bounds no errors; a
// search that ended short of its precision (out.Capacity.Search names
// it), when it finished (was neither stopped nor interrupted); and, with
// an answer, connections far more than its rate needs (inFlight: the
// connections times their streams).
func Warnings(out Outcome, slo []threshold.Expr, inFlight int, finished bool) []string {
	c := out.Capacity
	warnings := finalStepWarnings(out)
	if w := unboundedErrors(slo, out.Steps); w != "" {
		warnings = append(warnings, w)
	}
	if w := render.CapacityPrecisionWarning(c); w != "" && finished {
		warnings = append(warnings, w)
	}
	if w := idleConnections(out, inFlight); w != "" && c.Rate != nil {
		warnings = append(warnings, w)
	}
	return warnings
}

// finalStepWarnings are the warnings of the step that stands for the
// search (Outcome.Final), each naming that step: they print after every
// step's line, next to the verdict, and one step's warning (a pass that
// did not keep its schedule) must not read as the whole search's.
func finalStepWarnings(out Outcome) []string {
	label := ""
	for i, st := range out.Steps {
		if st.StepResult != nil && st.StepResult == out.Final.StepResult {
			rate := "probe"
			if st.TargetRate > 0 {
				rate = render.FormatRateWhole(st.TargetRate) + " req/s"
			}
			label = fmt.Sprintf("step %d (%s): ", i+1, rate)
		}
	}
	warnings := make([]string, 0, len(out.Final.Warnings))
	for _, w := range out.Final.Warnings {
		warnings = append(warnings, label+w)
	}
	return warnings
}

// unboundedErrors warns when steps passed with failed requests because
// the SLO bounds none: a server that answers every request with a 503
// would otherwise pass at any rate.
func unboundedErrors(slo []threshold.Expr, steps []stats.Result) string {
	for _, e := range slo {
		if e.BoundsErrors() {
			return ""
		}
	}
	for _, st := range steps {
		if st.StepResult != nil && st.Passed && st.Errors.Total() > 0 {
			return fmt.Sprintf("steps passed with failed requests (%s at %s req/s): the SLO bounds no errors; add --threshold 'errors<0.1%%'",
				render.ErrorList(st.Errors), render.FormatRateWhole(st.TargetRate))
		}
	}
	return ""
}

// idleShare is how many times more requests in flight than a rate
// needs (rate × time a request holds its connection) -c may allow before
// a search warns that the idle connections, not the server, shape its
// figures.
const idleShare = 16

// idleConnections warns when the connections are far more than the
// answer's rate needs: an open-loop rate keeps rate × latency requests
// in flight, and every connection beyond that sits idle, costing the
// client (and the server) wake-ups and memory per request, so that a
// search with -c 256 can answer lower than one with -c 32 against the
// same server. inFlight is the connections times their streams.
func idleConnections(out Outcome, inFlight int) string {
	st := out.Final
	if st.TargetRate == 0 || st.LatencyUncorrected == nil || inFlight < 64 {
		return ""
	}
	needed := st.AchievedRate * st.LatencyUncorrected.Mean / 1e6
	if float64(inFlight) < idleShare*max(needed, 1) {
		return ""
	}
	suggest := max(int(8*needed+0.5), 8)
	return fmt.Sprintf("the connections allow %d requests in flight where %s req/s needed about %.1f (%s a request): the idle ones cost the client and the server per request and can lower the answer; about -c %d measures the server",
		inFlight, render.FormatRateWhole(st.AchievedRate), needed, render.FormatTime(st.LatencyUncorrected.Mean), suggest)
}
