package suite

import (
	"context"
	"fmt"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/redact"
	"github.com/pummel-dev/pummel/stats"
)

// operation measures operation i with the server watched: its CPU time
// per request and peak RSS come from the samples taken during the load.
// An operation whose dependency failed a check in this run, or was
// skipped, is skipped, and counts as failed for those that depend on it.
func (r *runner) operation(ctx context.Context, i int) error {
	op := &r.suite.ops[i]
	out := OperationResult{Name: op.name}
	defer func() { r.rep.Operations = append(r.rep.Operations, out) }()
	if out.Skipped = r.skipReason(op); out.Skipped != "" {
		r.failed[i] = true
		return nil
	}
	cfg, err := op.config(r.x)
	if err != nil {
		return fmt.Errorf("operation %s: %w", op.name, err)
	}
	w, base, err := r.watch("before the load")
	if err != nil {
		return fmt.Errorf("before operation %s: %w", op.name, err)
	}
	if r.observe != nil {
		r.observe(&cfg, w, LoadID{Mode: r.rep.Mode, Operation: op.name, Run: r.rep.Run})
	}
	res, err := w.Load(ctx, cfg)
	u := &res.Server[0]
	u.RSSBytes.Idle = r.rep.IdleRSSBytes // sampled once per run, before the first operation
	r.keepSamples(w, base, "operation "+op.name)
	if err != nil {
		return fmt.Errorf("operation %s: %w", op.name, err)
	}
	res.Config = op.runConfig(cfg)
	res.Scrub(r.x.scrub) // the expanded ${VAR} values, in every stage and run
	out.Result = &res
	out.CheckFailures, out.CheckCauses = op.failedChecks(res)
	r.failed[i] = out.CheckFailures > 0
	if u.ExitedDuringLoad {
		return fmt.Errorf("operation %s: %w", op.name, r.exited(nil, "during the load"))
	}
	return nil
}

// skipReason says why op is not to run in this run, or "" if it is.
func (r *runner) skipReason(op *recordedConfig) string {
	d := op.dependsOn
	switch {
	case d < 0 || !r.failed[d]:
		return ""
	case r.rep.Operations[d].Skipped != "":
		return fmt.Sprintf("%s, which it depends on, was skipped in this run", r.suite.ops[d].name)
	}
	return fmt.Sprintf("%s, which it depends on, failed a check in this run", r.suite.ops[d].name)
}

// requestMethod is the method sent: as given, else GET, or POST with a
// body (engine.Method).
func (op *recordedConfig) requestMethod() string { return engine.Method(op.method, op.body.given()) }

// runConfig records the load shape with the URL and headers as written
// in the plan (placeholders kept) and secrets redacted; the method is the
// one sent.
func (op *recordedConfig) runConfig(cfg engine.Config) stats.Config {
	rc := cfg.Recorded()
	rc.URL, rc.Headers = redact.URLTemplate(op.url), nil
	for _, h := range op.headers {
		rc.Headers = append(rc.Headers, redact.Header(h.Name+": "+h.Value))
	}
	return rc
}
