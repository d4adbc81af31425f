package stats

import "github.com/pummel-dev/pummel/internal/redact"

// Scrub passes the free text of r through clean, wherever a secret may
// hide in it: error causes (a script's error may quote a header),
// warnings, server exit reasons and a capacity search's reason, in every
// stage, run and step; and the targets' URLs, redacted as redact.URL does.
// Figures and the config are left alone: the config is redacted when it
// is recorded.
func (r *Result) Scrub(clean func(string) string) {
	for class, causes := range r.ErrorCauses {
		scrubbed := make(map[string]int64, len(causes))
		for cause, n := range causes {
			scrubbed[clean(cause)] += n
		}
		r.ErrorCauses[class] = scrubbed
	}
	for i := range r.Targets {
		r.Targets[i].URL = clean(redact.URL(r.Targets[i].URL))
	}
	for i, w := range r.Warnings {
		r.Warnings[i] = clean(w)
	}
	for i := range r.Server {
		r.Server[i].ExitReason = clean(r.Server[i].ExitReason)
	}
	if r.Export != nil {
		for i := range r.Export.Sinks {
			s := &r.Export.Sinks[i]
			s.URL, s.LastError = clean(redact.URL(s.URL)), clean(s.LastError)
		}
	}
	if r.Capacity != nil {
		r.Capacity.Why, r.Capacity.Stopped = clean(r.Capacity.Why), clean(r.Capacity.Stopped)
	}
	if r.StepResult != nil {
		r.Why = clean(r.Why)
	}
	for _, parts := range [][]Result{r.Stages, r.Runs, r.Steps} {
		for i := range parts {
			parts[i].Scrub(clean)
		}
	}
}
