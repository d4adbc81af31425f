package redact

import "github.com/pummel-dev/pummel/stats"

// Result passes the free text of res through clean, wherever a secret may
// hide in it: error causes (a script's error may quote a header),
// warnings, server exit reasons and a capacity search's reason, in every
// stage, run and step. Figures and the config are left alone: the config
// is redacted when it is recorded.
func Result(res *stats.Result, clean func(string) string) {
	for class, causes := range res.ErrorCauses {
		scrubbed := make(map[string]int64, len(causes))
		for cause, n := range causes {
			scrubbed[clean(cause)] += n
		}
		res.ErrorCauses[class] = scrubbed
	}
	for i, w := range res.Warnings {
		res.Warnings[i] = clean(w)
	}
	for i := range res.Server {
		res.Server[i].ExitReason = clean(res.Server[i].ExitReason)
	}
	if res.Capacity != nil {
		res.Capacity.Why = clean(res.Capacity.Why)
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
