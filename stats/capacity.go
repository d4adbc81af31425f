package stats

// Capacity is the answer of `pummel capacity`: the highest rate the server
// carried within the SLO, and how the search ended.
type Capacity struct {
	// Rate is the capacity in requests/s: the highest rate that passed
	// (and, when Confirmed, passed again over the confirmation run). It
	// is nil when no rate from the search's lowest met the SLO.
	Rate *float64 `json:"rate"`
	// Confirmed is true when a confirmation run at Rate passed.
	Confirmed bool `json:"confirmed"`
	// PassRate and FailRate are the final bracket of the search: the
	// highest rate that passed and the lowest that failed above it; nil
	// when there is none.
	PassRate *float64 `json:"pass_rate"`
	FailRate *float64 `json:"fail_rate"`
	// FailInconclusive is true when the step at FailRate was
	// inconclusive (its evidence told neither way in the longest a step
	// may take) rather than failed.
	FailInconclusive bool `json:"fail_inconclusive,omitempty"`
	// PrecisionReached is true when the bracket is within the search's
	// precision: FailRate at most PassRate × (1 + precision).
	PrecisionReached bool `json:"precision_reached"`
	// EndedBy says what ended the search: EndedPrecision, EndedMaxSteps,
	// EndedTo, EndedClient or EndedFrom ("" when a load could not be
	// carried out or the search was interrupted).
	EndedBy string `json:"ended_by,omitempty"`
	// StepsRun counts the loads at a rate, retests, extensions' steps
	// and confirmations included (each step once, however long it was
	// measured); the probe is not one.
	StepsRun int `json:"steps_run"`
	// Confidence is the confidence (0.95) with which each step's share
	// thresholds were judged (p99<…, errors<…%): see README's capacity
	// section.
	Confidence float64 `json:"confidence"`
	// LimitedBy says what ended the search: LimitServer (a step failed
	// the SLO), LimitClient (pummel could not keep a step's schedule: the
	// rate is then a lower bound) or LimitRange (every rate up to the
	// highest tried passed: the rate is then a lower bound).
	LimitedBy string `json:"limited_by"`
	// Thresholds is the SLO every step was judged by, as given.
	Thresholds []string `json:"thresholds"`
	// Why says, in words, why the step at FailRate (or the client-limited
	// step) failed: "p99 212ms >= 50ms".
	Why string `json:"why,omitempty"`
	// Stopped says why a search ended before its answer, when a load
	// could not be carried out ("cannot connect to the target"): the
	// figures are then those of the steps before it.
	Stopped string `json:"stopped,omitempty"`
	// Search is how the search was set up.
	Search Search `json:"search"`
}

// Search is the set-up of a capacity search, as run.
type Search struct {
	// StepS is each step's measured time, StepWarmupS its warm-up at the
	// step's rate (also the pause before it), ConfirmS the confirmation
	// run's time (0: none), in seconds.
	StepS       float64 `json:"step_s"`
	StepWarmupS float64 `json:"step_warmup_s"`
	ConfirmS    float64 `json:"confirm_s"`
	// From and To are the lowest and highest rates tried (requests/s);
	// To came from the probe unless given. Start is the first tried: a
	// share of the probe's throughput, or From.
	From  float64 `json:"from"`
	To    float64 `json:"to"`
	Start float64 `json:"start"`
	// Precision is the bracket's width that ends the bisection (0.02 = 2%).
	Precision float64 `json:"precision"`
	// MaxSteps bounds the rates tried.
	MaxSteps int `json:"max_steps"`
}

// What ended a capacity search's steps (Capacity.EndedBy).
const (
	EndedPrecision = "precision"
	EndedMaxSteps  = "max-steps"
	EndedTo        = "to"
	EndedClient    = "client"
	EndedFrom      = "from"
)

// What limited a capacity search (Capacity.LimitedBy).
const (
	LimitServer = "server"
	LimitClient = "client"
	LimitRange  = "range"
)

// Step verdicts (Result.Verdict) of a capacity search.
const (
	VerdictProbe         = "probe"
	VerdictPass          = "pass"
	VerdictFail          = "fail"
	VerdictClientLimited = "client-limited"
	VerdictConfirmed     = "confirmed"
	VerdictNotConfirmed  = "not confirmed"
	// VerdictInterrupted: the step was cut short (Ctrl-C) and judged nothing.
	VerdictInterrupted = "interrupted"
	// VerdictInconclusive: the step's evidence told neither way in the
	// longest a step may take.
	VerdictInconclusive = "inconclusive"
)

// StepResult adds to a step's result what a capacity search judged of it.
type StepResult struct {
	// Verdict is one of the Verdict constants.
	Verdict string `json:"verdict"`
	// Passed is true when the step met every threshold and kept its
	// schedule.
	Passed bool `json:"passed"`
	// Failed holds the thresholds the step failed, as in Result.Thresholds.
	Failed []Threshold `json:"failed,omitempty"`
	// Why says in words why the step did not pass.
	Why string `json:"why,omitempty"`
	// Samples is how many outcomes (responses and socket errors) the
	// step was judged on.
	Samples int64 `json:"samples"`
	// Extensions counts the times the step was measured on at its rate
	// because its evidence did not tell yet (its figures are of the
	// whole, merged exactly).
	Extensions int `json:"extensions,omitempty"`
	// Retest is true for a step run again at a rate that had just
	// failed, before that fail may cap the search.
	Retest bool `json:"retest,omitempty"`
}

// LateShare is the share of sends (0 to 1) that left more than
// record.LateSend after their intended time; 0 in closed loop.
func (r Result) LateShare() float64 {
	sent := r.Requests + r.Errors.Socket()
	if sent == 0 || r.ScheduleLag == nil {
		return 0
	}
	return float64(r.ScheduleLag.LateSends) / float64(sent)
}

// KeptRate reports whether an open-loop result sent at its target rate:
// the achieved rate within 1% of it. A closed-loop result has no target
// and always keeps it.
func (r Result) KeptRate() bool {
	return r.TargetRate == 0 || r.AchievedRate >= 0.99*r.TargetRate
}

// ScheduleKept reports whether an open-loop result kept its schedule: the
// rate (KeptRate), with at most 1% of the sends late. When it did not,
// the figures are the client's as much as the server's.
func (r Result) ScheduleKept() bool {
	return r.KeptRate() && r.LateShare() <= 0.01
}
