package record

// SplitTargets makes the recorder also keep, for each of n targets, the
// responses (Outcome.Target) and errors (AddTargetErrors) of that target
// in a recorder of its own: latency, statuses and errors by class. It is
// called before recording.
func (r *Recorder) SplitTargets(n int) {
	r.targets = make([]*Recorder, n)
	for i := range r.targets {
		r.targets[i] = New()
	}
}

// Targets returns the per-target recorders, nil unless SplitTargets was
// called (or a merged recorder had them).
func (r *Recorder) Targets() []*Recorder { return r.targets }

// AddTargetErrors counts n failed requests of target among the target's
// errors; AddErrors counts them in the recorder's own.
func (r *Recorder) AddTargetErrors(target int, class ErrorClass, n int64) {
	if target < len(r.targets) {
		r.targets[target].t.Errors[class] += n
	}
}

// addTargetOutcome records one response in a target's recorder.
func (r *Recorder) addTargetOutcome(o *Outcome) {
	t := &r.t
	r.recordLatency(int64(o.Latency))
	t.Status[o.Status]++
	if o.Rejected {
		t.Errors[Status]++
	}
	t.Requests++
}

// mergeTargets merges other's per-target recorders into r's.
func (r *Recorder) mergeTargets(other *Recorder) {
	if other.targets == nil {
		return
	}
	if r.targets == nil {
		r.SplitTargets(len(other.targets))
	}
	for i, o := range other.targets {
		if i < len(r.targets) {
			r.targets[i].merge(o)
		}
	}
}
