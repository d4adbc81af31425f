package redact

import "github.com/pummel-dev/pummel/stats"

// Result passes the free text of res through clean, wherever a secret may
// hide in it: error causes (a script's error may quote a header),
// warnings, server exit reasons and a capacity search's reason, in every
// stage, run and step; and the targets' URLs, redacted as URL does.
// Figures and the config are left alone: the config is redacted when it
// is recorded.
func Result(res *stats.Result, clean func(string) string) {
	for class, causes := range res.ErrorCauses {
		scrubbed := make(map[string]int64, len(causes))
		for cause, n := range causes {
			scrubbed[clean(cause)] += n
		}
		res.ErrorCauses[class] = scrubbed
	}
	for i := range res.Targets {
		res.Targets[i].URL = clean(URL(res.Targets[i].URL))
	}
	for i, w := range res.Warnings {
		res.Warnings[i] = clean(w)
	}
	for i := range res.Server {
		res.Server[i].ExitReason = clean(res.Server[i].ExitReason)
	}
	if res.Capacity != nil {
		res.Capacity.Why, res.Capacity.Stopped = clean(res.Capacity.Why), clean(res.Capacity.Stopped)
	}
	if res.StepResult != nil {
		res.Why = clean(res.Why)
	}
	for _, parts := range [][]stats.Result{res.Stages, res.Runs, res.Steps} {
		for i := range parts {
			Result(&parts[i], clean)
		}
	}
}
